/**
 * Hints for a first run that went wrong for a reason the user can fix in one step: nothing answers at a
 * URL, the node names its methods another way, something answers HTTP but not JSON-RPC at the path, the
 * state checks could not fund a key (or were skipped for want of one). Each is said once, with the fix,
 * instead of as dozens of failures that all look alike. (A --url that already ends in the endpoint path
 * needs no hint: the CLI takes it as the endpoint's own URL, core/client/baseUrl.ts.)
 */
import { rpcEndpoint, saysUnreachable, unreachableMessage } from '../../core/client/baseUrl.js';
import { parseJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { METHOD_NAMES } from '../../core/schema/types.generated.js';
import type { CheckResult, Exchange } from '../model.js';
import type { Profile } from '../../profile/Profile.js';
import { SPEC_PREFIX, wireMethod } from '../../profile/Profile.js';
import { isObject } from '../../profile/readWire.js';
import { NO_FUNDS } from '../Wallet.js';

/** Share of the calls under a prefix answered -32601 from which the prefix is called wrong. */
const NOT_FOUND_SHARE = 0.8;
/** Fewest calls under a prefix to judge it by. */
const MIN_CALLS = 5;
/** Fewest setup errors of one kind worth a hint of their own. */
const MIN_SETUP_ERRORS = 3;

const parse = (text: string | undefined): JsonValue | undefined => {
  if (text === undefined || text === '') return undefined;
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
};

/** OpenRPC service discovery, which the suite's discovery checks call. */
const DISCOVER = 'rpc.discover';
/** The listings `chainrpc profile detect` reads method names from (profile/detect/methodListings.ts). */
const DISCOVERY_METHODS = ['rpc.discover', 'rpc_methods', 'system.listMethods', 'rpc_modules'];

/**
 * The methods a request body calls, with the error code each call got (undefined: answered otherwise
 * or not at all) and whether it got a result.
 */
function callsOf(exchange: Exchange): { method: string; code: number | undefined; answered: boolean }[] {
  const request = parse(exchange.request.body);
  const response = parse(exchange.response?.body);
  const requests = Array.isArray(request) ? request : [request];
  const responses = Array.isArray(response) ? response : [response];
  const responseTo = (id: JsonValue | undefined): JsonValue | undefined => responses.find((x) => isObject(x) && x.id === id);
  const codeFor = (r: JsonValue | undefined): number | undefined => (isObject(r) && isObject(r.error) && typeof r.error.code === 'number' ? r.error.code : undefined);
  return requests.flatMap((r) => {
    if (!isObject(r) || typeof r.method !== 'string' || r.id === undefined) return [];
    const response = responseTo(r.id);
    return [{ method: r.method, code: codeFor(response), answered: isObject(response) && Object.hasOwn(response, 'result') }];
  });
}

export function runHints(options: { targets: string[]; profile: Profile; results: CheckResult[]; transcript: Exchange[] }): string[] {
  const { targets, profile, results, transcript } = options;
  const hints: string[] = [];
  const rpcPath = profile.rpcPath;

  // A target where nothing answered at all: no word about paths, the node is not there.
  for (const url of targets) {
    if (results.some((r) => r.node === url && r.status === 'error' && saysUnreachable(r.evidence.message, url))) {
      hints.push(`${unreachableMessage(url)} Start it, or give the --url it serves at.`);
    }
  }

  // A target that answered HTTP, but nothing JSON-RPC at the endpoint: every check of it errs with the same message.
  for (const url of targets) {
    const down = results.find((r) => r.node === url && r.status === 'error' && r.evidence.message.includes('not a JSON-RPC endpoint'));
    if (down !== undefined) {
      const status = down.evidence.exchanges[0]?.response?.status;
      hints.push(
        `${rpcEndpoint(url, rpcPath)} answered${status === undefined ? '' : ` (HTTP ${status})`}, but not as a JSON-RPC endpoint. If the node serves JSON-RPC at another path, give --rpc-path (e.g. --rpc-path / or --rpc-path /v1/jsonrpc); \`chainrpc profile detect --url ${url}\` looks for it under the usual paths and writes a draft profile that names it.`,
      );
    }
  }

  // The spec's methods under the profile's names: most of them unknown to the node means the names are wrong.
  const specNames = new Set(METHOD_NAMES.filter((m) => m.startsWith(SPEC_PREFIX)).map((m) => wireMethod(profile, m)));
  let calls = 0;
  let notFound = 0;
  let othersAnswered = false;
  for (const exchange of transcript) {
    for (const call of callsOf(exchange)) {
      if (specNames.has(call.method)) {
        calls++;
        if (call.code === -32601) notFound++;
      } else if (exchange.response !== undefined && call.code !== -32601) othersAnswered = true;
    }
  }
  if (calls >= MIN_CALLS && notFound / calls >= NOT_FOUND_SHARE) {
    const prefix = profile.methodPrefix === '' ? 'the spec\'s method names' : `the spec's methods under the prefix "${profile.methodPrefix}"`;
    const url = targets[0] ?? '<url>';
    // profile detect finds names only where the node lists them: say which case this node is, from what the run saw of rpc.discover.
    const discover = transcript.flatMap(callsOf).filter((c) => c.method === DISCOVER);
    const detect =
      discover.some((c) => c.answered)
        ? `the node lists its methods (${DISCOVER}), so \`chainrpc profile detect --url ${url}\` finds the names and writes a draft profile.`
        : `\`chainrpc profile detect --url ${url}\` finds the names only where the node lists them (${DISCOVERY_METHODS.join(', ')})${discover.length > 0 ? `, and this node answered ${DISCOVER} with -32601` : ''}; otherwise give it the prefix: \`chainrpc profile detect --url ${url} --method-prefix <prefix>\` checks each method under it (and looks for the faucet under the names nodes give it) and writes a draft profile.`;
    hints.push(
      `Most calls of ${prefix} (${notFound} of ${calls}) got -32601 Method not found${othersAnswered ? ', while other calls were answered' : ''}: the node probably names its methods another way. Give --method-prefix <prefix> (or methodPrefix / methodNames in a profile); ${detect}`,
    );
  }

  const funding = results.filter((r) => r.status === 'error' && r.evidence.message.startsWith('setup: funding'));
  if (funding.length >= MIN_SETUP_ERRORS) {
    hints.push(
      `${funding.length} checks could not fund a fresh key (${(funding[0]?.evidence.message ?? '').replace(/^setup: funding a fresh key failed: /, '').split('; ')[0]}). Where the network has no faucet, give a funded key with --private-key; a profile that says "faucet": false skips these checks instead, and a run without them is not certified.`,
    );
  }

  // Passed, but not certified for want of funds: say what would run them.
  const unfunded = results.filter((r) => r.level === 'MUST' && r.status === 'skip' && r.evidence.message.startsWith(NO_FUNDS));
  if (unfunded.length > 0) {
    hints.push(`${unfunded.length} MUST check result(s) were skipped: ${NO_FUNDS}. Give --private-key <hex>, a key that holds funds on this network (its owner pays the checks' fees), to run them: a run is certified only when every MUST check ran.`);
  }
  return hints;
}
