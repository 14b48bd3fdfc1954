/**
 * The node a load command talks to (run, sweep, corpus, k6): the target options and their help lines, the
 * profile with the command line's overrides, and what a command says when the node cannot be talked to.
 */
import { CliError } from '../../CliError.js';
import type { OptionTable } from '../../CommandLine.js';
import { METHOD_PREFIX, RPC_PATH, httpUrlProblem } from '../../commonOptions.js';
import { notJsonRpc, pathHint, unreachable } from '../../nodeUrls.js';
import { isUnreachable } from '../../../core/client/baseUrl.js';
import { TransportError } from '../../../core/client/TransportError.js';
import { TargetUnreachableError } from '../../../load/runLoad.js';
import { loadProfile, ProfileError } from '../../../profile/loadProfile.js';
import type { Profile } from '../../../profile/Profile.js';

/** The target options' lines, as every load page shows them (`url` says how many nodes the page takes). */
export const targetOptions = (url: string): string => `  --url <base-url>         ${url}
                           (the endpoint is {base-url}/rpc, or the profile's path)
  --profile <file>         profile JSON for a network whose choices differ from the reference profile
  --rpc-path <path>        the endpoint's path under each base URL (default /rpc)
  --method-prefix <p>      the prefix the node's methods carry in place of chain_`;

export const URL_RULE = `A --url that already ends in the endpoint path (http://127.0.0.1:8545/rpc) is taken as the
endpoint's own URL: its base URL is what comes before the path, and a line on stderr says so.`;

export const TARGET = {
  url: { kind: 'list', value: '<base-url>', check: httpUrlProblem },
  profile: { kind: 'text', value: '<file>' },
  'rpc-path': RPC_PATH,
  'method-prefix': METHOD_PREFIX,
} as const satisfies OptionTable;

/** --private-key: a funded key (it goes into the profile, as the profile's own key would). */
export const PRIVATE_KEY = { kind: 'text', value: '<hex>', check: (text: string) => (/^[0-9a-fA-F]{64}$/.test(text) ? undefined : 'must be 64 hex characters') } as const;

/** The profile (--profile, or the reference profile) with the command line's overrides. */
export async function targetProfile(command: string, values: { profile?: string | undefined; 'rpc-path'?: string | undefined; 'method-prefix'?: string | undefined; 'private-key'?: string | undefined }): Promise<Profile> {
  let profile: Profile;
  try {
    profile = await loadProfile(values.profile);
  } catch (err) {
    if (err instanceof ProfileError) throw CliError.within(command, err);
    throw err;
  }
  if (values['rpc-path'] !== undefined) profile.rpcPath = values['rpc-path'];
  if (values['method-prefix'] !== undefined) profile.methodPrefix = values['method-prefix'];
  if (values['private-key'] !== undefined) profile.privateKey = values['private-key'];
  return profile;
}

/** That at least one --url is given (they are read by the one rule once the profile names the endpoint path: baseUrls). */
export function needUrls(command: string, given: readonly string[]): void {
  if (given.length === 0) throw new CliError(`${command}: give at least one --url (the base URL of a node; the endpoint is {url}/rpc)`);
}

/** What a command says when its node cannot be talked to at the start (exit 3), or undefined for another error. */
export function targetFailure(command: string, url: string, err: unknown): CliError | undefined {
  if (err instanceof TargetUnreachableError) return new CliError(`${command}: ${err.message}${err.notJsonRpc ? `. ${pathHint(err.url)}` : ''}`, err.kind, { cause: err });
  if (isUnreachable(err)) return unreachable(command, url, err.message);
  if (err instanceof TransportError && (err.code === 'HTTP_STATUS' || err.code === 'NOT_JSON') && err.response !== undefined) return notJsonRpc(command, url, err.request.url, `HTTP ${err.response.status}`);
  return undefined;
}
