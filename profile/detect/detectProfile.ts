import { detectBlockTransactions } from './detectBlockTransactions.js';
import type { JsonValue } from '../../core/json/index.js';
import { packageVersion } from '../../core/packageVersion.js';
import { referenceCodec } from '../referenceCodec.js';
import { referenceProfile, REFERENCE_SETTINGS } from '../referenceProfile.js';
import type { TxCodec } from '../TxCodec.js';
import { buildProfileJson } from './buildProfileJson.js';
import type { DetectedProfileJson } from './buildProfileJson.js';
import { decideErrorData } from './decideErrorData.js';
import { decideErrorStatuses } from './decideErrorStatuses.js';
import { decideFields } from './decideFields.js';
import type { FieldObservation } from './decideFields.js';
import { decideHexCase } from './decideHexCase.js';
import { Detection } from './Detection.js';
import type { StandardErrorAnswer } from './detectHttp.js';
import { detectMethods } from './detectMethods.js';
import type { MethodsDetected } from './detectMethods.js';
import { detectIntegers } from './detectEncodings.js';
import { detectRpcPath, UNKNOWN_METHOD } from './detectRpcPath.js';
import { fallback, given, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { fieldOf, RESULT_FIELDS } from './findKeys.js';
import { decideHashPrefix } from './decideHashPrefix.js';
import { isObject } from './Prober.js';
import { probeLimits } from './probeLimits.js';
import { probeReads } from './probeReads.js';
import { chainIdToSign, probeFaucet, probeTransactions } from './probeSends.js';
import { Prober } from './Prober.js';
import { resultOf } from './readResults.js';
import type { Observed } from './readResults.js';
import { tipOf } from './sampleHeights.js';

/** The whole detection's default limit. */
export const DEFAULT_DEADLINE_MS = 120_000;

export interface DetectOptions {
  /** The node's base URL (the endpoint path is detected under it). */
  url: string;
  /** The endpoint path, when known: only it is tried. */
  rpcPath?: string | undefined;
  /** The method prefix, when known (each method is still checked). */
  methodPrefix?: string | undefined;
  /** The chain id to sign for; default: chain_health's chain_id, else 1. */
  chainId?: bigint | undefined;
  /** The transaction codec; default: the reference codec. */
  codec?: TxCodec | undefined;
  /** The codec's module path as the profile file should name it (relative to the file). */
  codecModule?: string | undefined;
  /** Send transactions (a free transfer and deliberately bad ones). Default true. */
  transactions?: boolean | undefined;
  /** Claim from the faucet (up to 5 claims for one fresh address). Default true. */
  faucet?: boolean | undefined;
  /** Probe the batch and body size limits (bodies up to 16 MiB, batches up to 4096 calls). Default true. */
  limits?: boolean | undefined;
  /** The whole detection's limit, ms (default 120 000); each request has at most 10 s of it. */
  deadlineMs?: number | undefined;
  /** Each request's own limit (default REQUEST_TIMEOUT_MS, 10 s; the deadline's rest when less). */
  requestTimeoutMs?: number | undefined;
  /** Progress lines, as the detection goes. */
  onProgress?: ((line: string) => void) | undefined;
  signal?: AbortSignal | undefined;
}

export interface DetectResult {
  /** The profile file's content: loadable with profileFromJson, every detected key explicit, `$detect` with the evidence. */
  profile: DetectedProfileJson;
  /** One per key, in the file's order. */
  findings: Finding[];
  /** What the user should know: probes that failed or were cut by the deadline, doubtful answers. */
  warnings: string[];
  /** HTTP exchanges made. */
  requests: number;
  /**
   * Of them, the reads of the height that sample the block time (every SAMPLE_EVERY_MS until the height has
   * risen RISES times, at most SAMPLE_FOR_MS): the part of `requests` that grows with the node's block time.
   */
  heightReads: number;
  elapsedMs: number;
}

/** The profile keys a detection always writes, in the profile's order, with the value each defaults to. */
function defaults(): Array<[string, JsonValue, boolean]> {
  const r = referenceProfile();
  const out: Array<[string, JsonValue, boolean]> = [
    ['rpcPath', r.rpcPath, true],
    ['methodPrefix', r.methodPrefix, true],
    ['methodNames', r.methodNames, true],
    ['keyCase', r.keyCase, true],
    ['fields', r.fields, true],
    ['codec', referenceCodec.name, false],
    ...Object.entries(r.http).map(([k, v]): [string, JsonValue, boolean] => [`http.${k}`, v, true]),
    ...Object.entries(r.errorCodes).map(([k, v]): [string, JsonValue, boolean] => [`errorCodes.${k}`, v, true]),
    ['errorData', r.errorData, true],
    ...Object.entries(r.params).map(([k, v]): [string, JsonValue, boolean] => [`params.${k}`, v, true]),
    ['health.status', r.health.status, true],
    ['health.mode', r.health.mode, true],
  ];
  out.push(['genesisHeight', r.genesisHeight, true], ['genesisBlock', { ...r.genesisBlock }, true], ['hexCase', r.hexCase, true], ['hashPrefix', r.hashPrefix, true], ['timestamps', r.timestamps, true]);
  out.push(['integers', r.integers, true], ['methodIntegers', r.methodIntegers, true], ['peerCountResult', r.peerCountResult, true]);
  for (const key of ['identifiers', 'scores', 'unknownHeight', 'unknownAccount', 'txResult', 'faucet', 'faucetCredit', 'faucetResult'] as const) out.push([key, r[key], true]);
  // The node's own settings: unknown (null) unless found; another network's limits are no reason to assume the reference's.
  out.push(['faucetLimit', null, true], ['nonceGap', r.nonceGap, true], ['sequentialNonces', r.sequentialNonces, true], ['fee', r.fee.toString(), true], ['privateKey', null, false]);
  out.push(['blockTimeMs', REFERENCE_SETTINGS.blockTimeMs, true], ['chainId', null, false], ['maxBatch', null, true], ['maxBodyBytes', null, true]);
  return out;
}

/** Why a key is left to its default when no probe decided it. */
const UNDETECTABLE: Readonly<Record<string, string>> = {
  codec: 'the reference codec (chainrpc-tx-v1); a node with another transaction format needs a codec module (--codec)',
  fee: 'not visible from outside: the fee the suite\'s transfers carry (the spec\'s example, 10^15)',
  privateKey: 'not detectable: a funded key of your own, for a network without a faucet',
  'errorCodes.InternalError': 'not provoked from outside (a failing node)',
  'errorCodes.MempoolFull': 'not provoked (it takes filling the node\'s queue)',
  'errorCodes.NodeUnavailable': 'not provoked (a node shutting down, or an LN with no MN)',
  'errorCodes.FaucetUnavailable': 'not provoked (a node without a faucet, or an empty one)',
};

/**
 * Probes a node from outside and drafts its profile: each choice the spec leaves open, with the
 * evidence that decided it and a confidence (docs/profile-detect.md). Sends faucet claims and
 * transactions unless told not to. Never throws for what the node answers, except NoRpcEndpointError
 * when no path answers JSON-RPC at all; every request is bounded (10 s) and the whole run by the
 * deadline: what is not probed by then keeps the reference default, low confidence.
 */
export async function detectProfile(options: DetectOptions): Promise<DetectResult> {
  const started = Date.now();
  const progress = options.onProgress ?? (() => undefined);
  const prober = new Prober(options.url, started + (options.deadlineMs ?? DEFAULT_DEADLINE_MS), options.signal, progress, undefined, options.requestTimeoutMs);
  const d = new Detection(prober, options.codec ?? referenceCodec, options.signal);
  const { codec } = d;

  if (options.codecModule !== undefined) d.add([given('codec', options.codecModule, `--codec ${options.codecModule} (${codec.name})`)]);
  else if (options.codec !== undefined) d.add([given('codec', codec.name, `the codec given (${codec.name}); a profile file names its module`, false)]);
  try {
    progress(`detecting ${options.url} (deadline ${(options.deadlineMs ?? DEFAULT_DEADLINE_MS) / 1000} s)`);
    const path = await detectRpcPath(prober, options.rpcPath);
    d.add([path.finding]);
    progress(`rpcPath: ${prober.rpcPath} (${path.finding.evidence})`);
    const unknownMethod: StandardErrorAnswer | undefined = path.unknownMethod === undefined ? undefined : { name: 'MethodNotFound', what: `POST ${prober.rpcPath} an unknown method (${UNKNOWN_METHOD})`, outcome: path.unknownMethod };

    let methods: MethodsDetected | undefined;
    await d.step('method names', async () => {
      methods = await detectMethods(prober, options.methodPrefix);
      d.add(methods.findings);
      const missing = methods.findings.find((f) => f.key === 'methods');
      if (missing !== undefined) d.warnings.push(`methods ${missing.evidence}`);
    });
    if (methods !== undefined) await probeWith(d, options, methods, unknownMethod);
  } finally {
    await prober.close();
  }
  return draft(d, options, started);
}

/** Everything after the endpoint and the method names. */
async function probeWith(d: Detection, options: DetectOptions, m: MethodsDetected, unknownMethod: StandardErrorAnswer | undefined): Promise<void> {
  const { observed, chainId, blockTimeMs } = await probeReads(d, m, unknownMethod);
  // The height before the detection's own transactions: their blocks are above it (blockTransactions).
  let beforeSends: bigint | undefined;
  if (options.faucet !== false || options.transactions !== false) {
    await d.step('the height before the sends', async () => {
      beforeSends = await tipOf(d.prober, m);
    });
  }
  const funded = await probeFaucet(d, m, options.faucet, blockTimeMs);
  const signFor = chainIdToSign(d, options.chainId, chainId);
  await probeTransactions(d, m, options.transactions, signFor, funded, blockTimeMs);
  // Blocks are read for a transactions list only where the detection made transactions (a claim, or its sends).
  if (funded !== undefined || options.transactions !== false) await d.step('block transactions', async () => d.add([await detectBlockTransactions(d.prober, m, beforeSends, blockTimeMs)]));
  else d.add([fallback('blockTransactions', referenceProfile().blockTransactions, 'no transaction was made (no faucet, --no-transactions): no block was read for one')]);
  await probeLimits(d, m, options.limits);
  decideOverAll(d, observed);
}

/** Decisions over everything read. */
function decideOverAll(d: Detection, observed: Observed): void {
  const { found, prober, results } = d;
  const blocks = [observed.tip, observed.genesis].flatMap((r) => (r === undefined ? [] : [{ source: r.call, result: resultOf(r) ?? null, names: RESULT_FIELDS.block }]));
  const reads: FieldObservation[] = [
    ...(observed.health ? [{ source: observed.health.call, result: resultOf(observed.health) ?? null, names: RESULT_FIELDS.health }] : []),
    ...blocks,
    ...(observed.account ? [{ source: observed.account.call, result: resultOf(observed.account) ?? null, names: RESULT_FIELDS.account }] : []),
    ...(observed.pouLocal ? [{ source: observed.pouLocal.call, result: resultOf(observed.pouLocal) ?? null, names: RESULT_FIELDS.pouLocal }] : []),
    ...(observed.pouPeers ? [{ source: observed.pouPeers.call, result: resultOf(observed.pouPeers) ?? null, names: RESULT_FIELDS.pouPeers }] : []),
    // net_peerCount's result is read for its count's key only where it is an object (peerCountResult: object).
    ...(observed.peerCount && isObject(resultOf(observed.peerCount)) ? [{ source: observed.peerCount.call, result: resultOf(observed.peerCount) ?? null, names: RESULT_FIELDS.peerCount }] : []),
    ...d.observations,
  ];
  d.add(decideFields(reads).findings);
  // The funded account's integers beside the plain reads' (a fresh address may have shown none): decided again.
  if (d.fundedAccount !== undefined) d.add(detectIntegers(observed, d.fundedAccount));
  // A count written as the result itself (an integer or a decimal string) has no key: fields.count is not for such a node to show.
  const peerCount = found.get('peerCountResult')?.value;
  if ((peerCount === 'integer' || peerCount === 'decimal') && found.get('fields.count')?.basis === 'default') {
    d.add([probed('fields.count', found.get('fields.count')?.value ?? 'count', 'high', `net_peerCount answers the count itself${peerCount === 'decimal' ? ' (a decimal string)' : ''}: no key holds it`, false)]);
  }
  for (const r of [observed.tip, observed.genesis, observed.pouLocal, observed.pouPeers]) {
    const result = resultOf(r);
    if (result !== undefined) results.push(result);
  }
  for (const r of [observed.tip, observed.genesis]) {
    const block = resultOf(r);
    const list = fieldOf(block, RESULT_FIELDS.block, 'transactions');
    d.hashes.push(fieldOf(block, RESULT_FIELDS.block, 'hash') ?? null, fieldOf(block, RESULT_FIELDS.block, 'parent_hash') ?? null, ...(Array.isArray(list) ? list.slice(0, 20) : []));
  }
  d.add([decideHexCase(results, d.sentAddresses), decideHashPrefix(d.hashes), decideErrorData(prober.errorData), ...decideErrorStatuses(prober.errorStatuses)]);
  if (found.get('faucet')?.value === false) {
    if (!found.has('faucetLimit')) d.add([probed('faucetLimit', null, 'high', 'no faucet')]);
    if (!found.has('faucetCredit')) d.add([fallback('faucetCredit', referenceProfile().faucetCredit, 'no faucet')]);
    if (!found.has('faucetResult')) d.add([fallback('faucetResult', referenceProfile().faucetResult, 'no faucet')]);
  }
}

/** The result: the profile file drafted from the findings, with what the detection cost. */
function draft(d: Detection, options: DetectOptions, started: number): DetectResult {
  const { found, prober } = d;
  // Every key the file writes has a finding; what no probe decided keeps its default, saying why.
  const findings: Finding[] = [];
  for (const [key, value, written] of defaults()) {
    const f = found.get(key);
    findings.push(f ?? fallback(key, value, UNDETECTABLE[key] ?? (d.stopped ? 'not probed: the deadline came first' : 'not probed'), written));
    found.delete(key);
  }
  findings.push(...found.values());
  const host = new URL(options.url).host;
  const profile = buildProfileJson(`detected ${host}`, findings, { url: options.url, at: new Date(started).toISOString(), tool: `chainrpc ${packageVersion()}` });
  return { profile, findings, warnings: d.warnings, requests: prober.requests, heightReads: d.heightReads, elapsedMs: Date.now() - started };
}
