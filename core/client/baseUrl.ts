/**
 * One rule for a node's base URL, for every command that takes one (`--url`, replay's `--node`), and one
 * word for a node that does not answer at all. Light on purpose (no undici): the CLI's commands import it.
 *
 * The JSON-RPC endpoint is `{base}{rpcPath}` (the profile's rpcPath, default /rpc; with rpcPath `/`, the
 * base URL itself). A URL given that already ends in the endpoint path (`http://h:8545/rpc` with rpcPath
 * /rpc) is the endpoint's own URL, so it is taken as such: its base URL is what comes before the path, and
 * the command says so in one line on stderr. The endpoint is therefore always the URL as given (when it
 * ends in the path) or `{url}{rpcPath}`: never `…/rpc/rpc` by accident. Consequences, on purpose:
 *
 * - rpcPath `/` cuts nothing: `--url http://h/rpc --rpc-path /` posts to http://h/rpc, as given.
 * - An endpoint that really is at `…/rpc/rpc` (a node behind a proxy mounted at /rpc) is given whole:
 *   `--url http://h/rpc/rpc` (base http://h/rpc), or with `--rpc-path /`.
 * - Trailing slashes never matter: `http://h:8545/` and `http://h:8545/rpc/` read as `http://h:8545`.
 */
import { TransportError } from './TransportError.js';

/** The default endpoint path (docs/interface.md#transport-path), as the client has it. */
export const DEFAULT_RPC_PATH = '/rpc';

export interface BaseUrl {
  /** The node's base URL, without a trailing slash. */
  readonly base: string;
  /** When the URL given ended in the endpoint path: the line the command prints on stderr. */
  readonly note?: string;
}

/**
 * The base URL that `given` names under the endpoint path `rpcPath`: the URL less its trailing slashes,
 * and less the endpoint path where it ends in it (rpcPath `/` aside). `option` names the flag in the note.
 */
export function baseUrlOf(given: string, rpcPath: string = DEFAULT_RPC_PATH, option = '--url'): BaseUrl {
  const trimmed = given.replace(/\/+$/, '');
  const path = rpcPath.replace(/\/+$/, '');
  if (path === '' || !trimmed.endsWith(path)) return { base: trimmed };
  let pathname: string;
  try {
    pathname = new URL(trimmed).pathname;
  } catch {
    return { base: trimmed };
  }
  // The path proper, not a host or port that happens to end alike (rpcPath always starts with /).
  if (!pathname.endsWith(path)) return { base: trimmed };
  const base = trimmed.slice(0, -path.length);
  return { base, note: `${option} ${given} ends in the endpoint path ${path}: using base URL ${base}` };
}

/** The JSON-RPC endpoint of a base URL: `{base}{rpcPath}`, or the base URL itself when rpcPath is `/` (as RpcClient posts). */
export function rpcEndpoint(base: string, rpcPath: string): string {
  return `${base.replace(/\/+$/, '')}${rpcPath === '/' ? '' : rpcPath}`;
}

/**
 * Whether nothing answered at all: the connection was refused or reset, the name did not resolve, there was
 * no route, or the exchange timed out before any response head. Anything else answered something.
 */
export function isUnreachable(error: unknown): error is TransportError {
  return error instanceof TransportError && (error.code === 'REFUSED' || (error.code === 'TIMEOUT' && error.response === undefined));
}

/** What every command says of a node that answered nothing: "nothing answered at <base> (why): is the node running at <base>?". */
export function unreachableMessage(base: string, why?: string): string {
  return `nothing answered at ${base}${why === undefined || why === '' ? '' : ` (${why})`}: is the node running at ${base}?`;
}

/** Whether a message is unreachableMessage's for `base` (a check result's evidence, read back for a hint). */
export function saysUnreachable(message: string, base: string): boolean {
  return message.startsWith(`nothing answered at ${base}`) && message.endsWith(`: is the node running at ${base}?`);
}
