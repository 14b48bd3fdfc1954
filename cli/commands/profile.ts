import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { Command } from '../Command.js';
import { CliError, EXIT } from '../CliError.js';
import { CommandLine } from '../CommandLine.js';
import { METHOD_PREFIX, RPC_PATH, httpUrlProblem } from '../commonOptions.js';
import { ProfileError } from '../../suites/profile/loadProfile.js';
import type { TxCodec } from '../../suites/profile/TxCodec.js';
import { DEFAULT_DEADLINE_MS, detectProfile } from '../../suites/profile/detect/detectProfile.js';
import { formatFindings } from '../../suites/profile/detect/formatFindings.js';
import { loadCodecModule } from '../../suites/profile/detect/loadCodecModule.js';
import { NoRpcEndpointError } from '../../suites/profile/detect/NoRpcEndpointError.js';

const HELP = `Usage: chainrpc profile detect --url <base-url> [--out <file>] [options]

Probes a node from outside and writes a DRAFT profile (docs/profiles.md) for it: for every choice
the spec leaves open (endpoint path, method names, result keys, integer and hex encodings, unknown
heights and accounts, error codes, HTTP statuses, param leniency, faucet, transactions, block time,
batch and body limits) the value it found, the evidence that decided it and a confidence (high,
medium, low). Keys nothing from outside can show (fee, privateKey, the codes of an internal error,
a full mempool, an empty faucet, an unavailable node) keep the reference profile's values and are
listed as such. Review the draft, then test the node against it. See docs/profile-detect.md.

What it sends, besides reads: up to 5 faucet claims for one fresh address (--no-faucet to skip);
transactions from fresh keys: a free transfer (value 0, fee 0), its follow-ups and deliberately bad
ones (--no-transactions to skip; a node that refuses free transfers gets one funded by the faucet
claim, with a fee of 10^15 base units); request bodies of up to 16 MiB and batches of up to 4096
calls to find the limits (--no-limits to skip). About 110 requests against a node that answers at
once; each request is limited to 10 s and the whole detection to --deadline.

Options:
  --url <base-url>       the node's base URL (required)
  --out <file>           write the profile JSON there and print the findings table to stdout;
                         without it the JSON goes to stdout and the table to stderr
  --rpc-path <path>      the endpoint's path, when known (default: the first of /rpc, /,
                         /v1/jsonrpc, /jsonrpc, /api, /json-rpc, /rpc/v1 that answers JSON-RPC)
  --method-prefix <p>    the method prefix, when known (default: matched from the node's listing
                         of its methods, rpc.discover, rpc_methods, system.listMethods or
                         rpc_modules, else the spec's chain_); a node that lists none needs it
  --chain-id <n>         the chain id to sign transactions for (default: chain_health's chain_id,
                         else 1)
  --codec <module>       the transaction codec module, as a profile's codec key (default: the
                         reference codec); written into the profile, relative to --out
  --no-transactions      send no transactions
  --no-faucet            make no faucet claims
  --no-limits            do not probe the batch and body size limits
  --deadline <s>         the whole detection's limit (default ${DEFAULT_DEADLINE_MS / 1000}); what is not probed by then
                         keeps the reference default, low confidence
  -h, --help

Progress goes to stderr. Exit codes: 0 a draft was written (warnings, if any, are printed with
it); 2 usage error; 3 no JSON-RPC endpoint answered at the URL (what each path answered is listed);
4 internal error (a bug in chainrpc).`;

/** A base URL probes can be sent below: http or https, and nothing after the path. */
function bareUrlProblem(text: string): string | undefined {
  const problem = httpUrlProblem(text);
  if (problem !== undefined) return problem;
  const parsed = new URL(text.replace(/\/+$/, ''));
  return parsed.search !== '' || parsed.hash !== '' || parsed.username !== '' || parsed.password !== '' ? `${text} must have no query, fragment or credentials` : undefined;
}

const detectLine = new CommandLine('profile detect', {
  url: { kind: 'text', value: '<base-url>', required: true, check: bareUrlProblem },
  out: { kind: 'text', value: '<file>' },
  'rpc-path': RPC_PATH,
  'method-prefix': METHOD_PREFIX,
  'chain-id': { kind: 'uint', value: '<n>' },
  codec: { kind: 'text', value: '<module>' },
  'no-transactions': { kind: 'flag' },
  'no-faucet': { kind: 'flag' },
  'no-limits': { kind: 'flag' },
  deadline: { kind: 'integer', value: '<s>', min: 1, max: 3600, default: DEFAULT_DEADLINE_MS / 1000 },
});

/** The codec module as the profile file names it: relative to the file (how loadProfile resolves it), or absolute for stdout. */
function codecKey(module: string, out: string | undefined): string {
  const absolute = resolve(module);
  if (out === undefined) return absolute;
  const rel = relative(dirname(resolve(out)), absolute);
  return isAbsolute(rel) ? rel : rel.startsWith('.') ? rel : `./${rel}`;
}

async function detect(argv: string[]): Promise<number> {
  const { values } = detectLine.parse(argv);
  const url = values.url.replace(/\/+$/, '');
  const rpcPath = values['rpc-path'];
  const methodPrefix = values['method-prefix'];
  const chainId = values['chain-id'];
  const deadlineS = values.deadline;
  let codec: TxCodec | undefined;
  if (values.codec !== undefined) {
    try {
      codec = await loadCodecModule(values.codec);
    } catch (err) {
      if (err instanceof ProfileError) throw new CliError(`profile detect: ${err.message}`);
      throw err;
    }
  }
  const out = values.out;
  const live = process.stderr.isTTY && !process.env.CI;
  let result;
  try {
    result = await detectProfile({
      url,
      rpcPath,
      methodPrefix,
      chainId,
      codec,
      codecModule: values.codec === undefined ? undefined : codecKey(values.codec, out),
      transactions: !values['no-transactions'],
      faucet: !values['no-faucet'],
      limits: !values['no-limits'],
      deadlineMs: deadlineS * 1000,
      // Bisection steps come by the dozen: on a terminal they overwrite one line.
      onProgress: (line) => {
        const step = /^(maxBodyBytes|maxBatch|transactions): /.test(line);
        if (live && step) process.stderr.write(`\r\x1b[K  ${line.slice(0, (process.stderr.columns || 100) - 3)}`);
        else process.stderr.write(`${live ? '\r\x1b[K' : ''}detect: ${line}\n`);
      },
    });
  } catch (err) {
    if (err instanceof NoRpcEndpointError) throw new CliError(`profile detect: ${err.message}\nPass --rpc-path if the endpoint is at another path.`, EXIT.unreachable);
    throw err;
  }
  if (live) process.stderr.write('\r\x1b[K');
  const json = `${JSON.stringify(result.profile, null, 2)}\n`;
  const table = formatFindings(result.findings, Math.max(120, process.stdout.columns || 200));
  const warnings = result.warnings.length === 0 ? '' : `\nWarnings:\n${result.warnings.map((w) => `  - ${w}`).join('\n')}\n`;
  const summary = `${result.findings.filter((f) => f.confidence === 'high').length} high, ${result.findings.filter((f) => f.confidence === 'medium').length} medium, ${result.findings.filter((f) => f.confidence === 'low').length} low confidence; ${result.requests} requests in ${(result.elapsedMs / 1000).toFixed(1)} s`;
  if (out === undefined) {
    process.stdout.write(json);
    process.stderr.write(`${table}\n${warnings}\n${summary}\n`);
    return EXIT.ok;
  }
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, json);
  console.log(table);
  if (warnings !== '') console.log(warnings);
  console.log(`\n${summary}`);
  console.log(`profile written to ${out} (a draft: check the medium and low confidence rows)`);
  console.log(`next: chainrpc test --url ${url} --profile ${out} --level profile`);
  return EXIT.ok;
}

export const profile: Command = {
  name: 'profile',
  summary: 'Detect a node\'s profile from outside: a draft with evidence and confidence per key',
  help: HELP,
  commandLines: [detectLine],
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === 'detect') return detect(rest);
    throw new CliError(sub === undefined ? 'profile: name a subcommand: chainrpc profile detect --url <base-url> (see chainrpc profile --help)' : `profile: unknown subcommand "${sub}"; the one there is: detect`);
  },
};
