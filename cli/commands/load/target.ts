/**
 * The node a load command talks to (run, sweep, corpus, k6): the target options and their help lines, the
 * profile with the command line's overrides, and what a command says when the node cannot be talked to.
 */
import { CliError } from '../../CliError.js';
import type { OptionTable } from '../../CommandLine.js';
import { METHOD_PREFIX, RPC_PATH, nodeUrlProblem } from '../../commonOptions.js';
import { notJsonRpc, pathHint, unreachable } from '../../nodeUrls.js';
import { DEFAULT_RPC_PATH, isUnreachable } from '../../../core/client/baseUrl.js';
import { TransportError } from '../../../core/client/TransportError.js';
import { TargetUnreachableError } from '../../../load/runLoad.js';
import { loadProfile, ProfileError, profileFromJson, type ProfileSource } from '../../../profile/loadProfile.js';
import { detectProfile } from '../../../profile/detect/detectProfile.js';
import { detectSummary } from '../../../profile/detect/formatFindings.js';
import type { DetectedProfileJson } from '../../../profile/detect/buildProfileJson.js';
import { baseUrl } from '../../nodeUrls.js';
import { detectFailure } from '../profile.js';
import type { Profile } from '../../../profile/Profile.js';

/** The target options' lines, as every load page shows them (`url` says how many nodes the page takes). */
export const targetOptions = (url: string): string => `  --url <base-url>         ${url}
                           (the endpoint is {base-url}/rpc, or the profile's path)
  --profile <file|detect>  profile JSON for a network whose choices differ from the reference profile;
                           detect: detected from the first --url first (chainrpc profile detect)
  --rpc-path <path>        the endpoint's path under each base URL (default /rpc)
  --method-prefix <p>      the prefix the node's methods carry in place of chain_`;

export const URL_RULE = `A --url that already ends in the endpoint path (http://127.0.0.1:8545/rpc) is taken as the
endpoint's own URL: its base URL is what comes before the path, and a line on stderr says so.`;

export const TARGET = {
  url: { kind: 'list', value: '<base-url>', check: nodeUrlProblem },
  profile: { kind: 'text', value: '<file>' },
  'rpc-path': RPC_PATH,
  'method-prefix': METHOD_PREFIX,
} as const satisfies OptionTable;

/** --private-key: a funded key (it goes into the profile, as the profile's own key would). */
export const PRIVATE_KEY = { kind: 'text', value: '<hex>', check: (text: string) => (/^[0-9a-fA-F]{64}$/.test(text) ? undefined : 'must be 64 hex characters') } as const;

type TargetValues = { profile?: string | undefined; url?: readonly string[]; 'rpc-path'?: string | undefined; 'method-prefix'?: string | undefined; 'private-key'?: string | undefined };

/** `--profile detect`: the profile of the first --url, detected from outside before the command runs. */
export const DETECT = 'detect';

/** The profile (--profile: a file, or `detect`; else the reference profile) with the command line's overrides. */
export async function targetProfile(command: string, values: TargetValues): Promise<Profile> {
  return (await targetProfileAndSource(command, values)).profile;
}

/** targetProfile, and where other threads find it (a file's path, the detected profile's JSON, or null: the reference profile). */
export async function targetProfileAndSource(command: string, values: TargetValues): Promise<{ profile: Profile; source: ProfileSource }> {
  if (values.profile === DETECT) {
    const detected = await detectTargetProfile(command, values);
    return { profile: detected.profile, source: { json: detected.json, name: 'the detected profile' } };
  }
  return { profile: await fileProfile(command, values), source: values.profile ?? null };
}

async function fileProfile(command: string, values: TargetValues): Promise<Profile> {
  let profile: Profile;
  try {
    profile = await loadProfile(values.profile);
  } catch (err) {
    if (err instanceof ProfileError) throw CliError.within(command, err);
    throw err;
  }
  return withOverrides(profile, values);
}

function withOverrides(profile: Profile, values: TargetValues): Profile {
  if (values['rpc-path'] !== undefined) profile.rpcPath = values['rpc-path'];
  if (values['method-prefix'] !== undefined) profile.methodPrefix = values['method-prefix'];
  if (values['private-key'] !== undefined) profile.privateKey = values['private-key'];
  return profile;
}

/**
 * `--profile detect`: what `chainrpc profile detect` would write for the first --url (limits, codes, names,
 * encodings; a free transfer and a faucet claim, as it does), said on stderr in one line per step, then loaded
 * as a profile file would be. `json` is the draft, for the command to keep beside its report.
 */
export async function detectTargetProfile(command: string, values: TargetValues): Promise<{ profile: Profile; json: DetectedProfileJson; summary: string }> {
  const given = values.url?.[0];
  if (given === undefined) throw new CliError(`${command}: --profile detect detects the profile of the first --url: give one`);
  const rpcPath = values['rpc-path'];
  const url = baseUrl(command, given, rpcPath ?? DEFAULT_RPC_PATH);
  process.stderr.write(`${command}: --profile detect: detecting the profile of ${url} (chainrpc profile detect --url ${url} --out <file> writes it once, to reuse)\n`);
  let result;
  try {
    result = await detectProfile({ url, rpcPath, methodPrefix: values['method-prefix'], onProgress: (line) => {
      if (!/^(maxBodyBytes|maxBatch|transactions): /.test(line)) process.stderr.write(`${command}: detect: ${line}\n`);
    } });
  } catch (err) {
    throw detectFailure(command, url, rpcPath, err);
  }
  const summary = detectSummary(result);
  process.stderr.write(`${command}: detect: ${summary}${result.warnings.length === 0 ? '' : `; ${result.warnings.length} warning(s): ${result.warnings.join('; ')}`}\n`);
  let profile: Profile;
  try {
    profile = await profileFromJson(result.profile, `the profile detected at ${url}`);
  } catch (err) {
    if (err instanceof ProfileError) throw CliError.within(command, err);
    throw err;
  }
  return { profile: withOverrides(profile, values), json: result.profile, summary };
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
