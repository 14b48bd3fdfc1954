/**
 * Every command's base URLs by the one rule (core/client/baseUrl.ts), and what every command says when
 * a node cannot be talked to: nothing answered (exit 3, "is the node running at <url>?"), or something
 * answered HTTP but not JSON-RPC (exit 3, and only then a word about the endpoint path).
 */
import { CliError } from './CliError.js';
import { baseUrlOf, unreachableMessage } from '../core/client/baseUrl.js';

/**
 * The base URLs of a command's `option` values under the endpoint path `rpcPath`; each that ended in the
 * path is said in one line on stderr. Two values that name the same node are a usage error.
 */
export function baseUrls(command: string, given: readonly string[], rpcPath: string, option = '--url'): string[] {
  const seen = new Map<string, string>();
  for (const url of given) {
    const { base, note } = baseUrlOf(url, rpcPath, option);
    const earlier = seen.get(base);
    if (earlier !== undefined) throw new CliError(`${command}: the same ${option} is given twice${earlier === url ? '' : ` (${earlier} and ${url} are both ${base})`}`);
    seen.set(base, url);
    if (note !== undefined) process.stderr.write(`${command}: ${note}\n`);
  }
  return [...seen.keys()];
}

/** One base URL by the rule (see baseUrls). */
export function baseUrl(command: string, given: string, rpcPath: string, option = '--url'): string {
  return baseUrls(command, [given], rpcPath, option)[0] ?? given;
}

/** Nothing answered at `base`: exit 3, asking whether the node runs there. */
export function unreachable(command: string, base: string, why?: string): CliError {
  return new CliError(`${command}: ${unreachableMessage(base, why)}`, 'target');
}

/**
 * Something answered HTTP at `endpoint` but not JSON-RPC: exit 3, with what it answered and how to give
 * another endpoint path (`--rpc-path`, which every command that takes a base URL also takes).
 */
export function notJsonRpc(command: string, base: string, endpoint: string, answered: string): CliError {
  return new CliError(`${command}: ${endpoint} answered, but not as a JSON-RPC endpoint (${answered}). ${pathHint(base)}`, 'target');
}

/** What to do when something answered HTTP under `base` but not JSON-RPC at the endpoint path. */
export function pathHint(base: string): string {
  return `If the node serves JSON-RPC at another path under ${base}, give it with --rpc-path (e.g. --rpc-path / or --rpc-path /v1/jsonrpc); chainrpc profile detect --url ${base} looks for it.`;
}
