import type { Command } from '../Command.js';
import { CliError } from '../CliError.js';
import { CommandLine } from '../CommandLine.js';
import { nodeUrlProblem, RPC_PATH } from '../commonOptions.js';
import { baseUrl, notJsonRpc, unreachable } from '../nodeUrls.js';
import { DEFAULT_RPC_PATH, isUnreachable } from '../../core/client/baseUrl.js';
import { JsonRpcError, TransportError, createClient, isErrorPage } from '../../core/client/index.js';
import { JsonParseError, parseJson, stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';

const HELP = `Usage: chainrpc call --url <base-url> <method> [param ...] [--rpc-path <path>] [--timeout <ms>]

Sends one JSON-RPC 2.0 call to POST {base-url}/rpc (or --rpc-path) and prints the result as JSON.
Each param is read as JSON when it parses (42, "text", [1,2], {"a":1}, null), and as a
string otherwise, so a bare address needs no quotes:

  chainrpc call --url http://127.0.0.1:8545 chain_getAccount 6488585c...577e
  chainrpc call --url http://127.0.0.1:8545 chain_getBlockByHeight 12

Integers beyond 2^53 in the answer are printed exactly. A JSON-RPC error answer is printed
as JSON on stderr and exits 1; an unreachable node exits 3. A --url that already ends in the
endpoint path (http://127.0.0.1:8545/rpc) is taken as the endpoint's own URL, and said on stderr.

Options:
  --url <base-url>   the node's base URL (required; the endpoint is {base-url}/rpc)
  --rpc-path <path>  the endpoint's path under the base URL (default /rpc; / posts to the base
                     URL itself)
  --timeout <ms>     give up after this long (default 10000)
  -h, --help

Exit codes: 0 a result (printed); 1 the node answered with an error (printed on stderr); 2 usage
error; 3 the node is unreachable (nothing answered), or what answered is not a JSON-RPC endpoint;
4 internal error (a bug in chainrpc).`;

function param(text: string): JsonValue {
  try {
    return parseJson(text);
  } catch (err) {
    if (err instanceof JsonParseError) return text;
    throw err;
  }
}

const commandLine = new CommandLine(
  'call',
  {
    url: { kind: 'text', value: '<base-url>', required: true, check: nodeUrlProblem },
    'rpc-path': RPC_PATH,
    timeout: { kind: 'integer', value: '<ms>', min: 1, default: 10_000 },
  },
  true,
);

export const call: Command = {
  name: 'call',
  summary: 'Send one JSON-RPC call to a node and print the result',
  help: HELP,
  commandLines: [commandLine],
  async run(argv) {
    const { values, positionals } = commandLine.parse(argv);
    const [method, ...params] = positionals;
    if (method === undefined) throw new CliError('call: name the method to call (see chainrpc methods)');
    const timeoutMs = values.timeout;
    const rpcPath = values['rpc-path'] ?? DEFAULT_RPC_PATH;
    const base = baseUrl('call', values.url, rpcPath);
    let client;
    try {
      client = createClient({ baseUrl: base, rpcPath, timeoutMs });
    } catch (err) {
      throw new CliError(`call: ${err instanceof Error ? err.message : String(err)}`);
    }
    try {
      const result = await client.call<JsonValue>(method, params.map(param));
      console.log(stringifyJson(result));
      return 0;
    } catch (err) {
      if (isUnreachable(err)) throw unreachable('call', base, err.message);
      // An answer that is not a JSON-RPC response at all (an HTML 404, an empty 502): the path may be wrong.
      if (err instanceof TransportError && (err.code === 'HTTP_STATUS' || err.code === 'NOT_JSON') && err.response !== undefined) {
        throw notJsonRpc('call', base, client.url, `HTTP ${err.response.status}${err.code === 'NOT_JSON' ? ', not JSON' : ''}`);
      }
      // An error page in JSON-RPC's form (a 404 with an error for no call): the path, not the call, is likely wrong.
      if (err instanceof JsonRpcError && isErrorPage(err)) throw notJsonRpc('call', base, client.url, `HTTP ${err.response.status}, an error for no call (id null): ${err.code} ${err.rpcMessage}`);
      throw err;
    } finally {
      await client.close();
    }
  },
};
