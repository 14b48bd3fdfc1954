import { randomBytes } from 'node:crypto';
import type { JsonValue } from '../../core/json/index.js';
import { packageVersion } from '../../core/packageVersion.js';
import { referenceCodec } from '../referenceCodec.js';
import { referenceProfile, REFERENCE_SETTINGS } from '../referenceProfile.js';
import type { TxCodec } from '../TxCodec.js';
import { buildProfileJson } from './buildProfileJson.js';
import type { DetectedProfileJson } from './buildProfileJson.js';
import { decideBlockTime } from './decideBlockTime.js';
import { decideErrorData } from './decideErrorData.js';
import { decideErrorStatuses } from './decideErrorStatuses.js';
import { decideFields } from './decideFields.js';
import type { FieldObservation } from './decideFields.js';
import { decideHexCase } from './decideHexCase.js';
import { detectBatchLimit } from './detectBatchLimit.js';
import { detectBodyLimit } from './detectBodyLimit.js';
import { detectEncodings } from './detectEncodings.js';
import { detectFaucet } from './detectFaucet.js';
import { detectHealth } from './detectHealth.js';
import { detectHttp } from './detectHttp.js';
import type { StandardErrorAnswer } from './detectHttp.js';
import { detectMethods } from './detectMethods.js';
import type { MethodsDetected } from './detectMethods.js';
import { detectParams } from './detectParams.js';
import { detectRpcPath, UNKNOWN_METHOD } from './detectRpcPath.js';
import { detectTransactions } from './detectTransactions.js';
import { detectUnknowns } from './detectUnknowns.js';
import { fallback, given, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { RESULT_FIELDS } from './findKeys.js';
import { integerOf } from './integerOf.js';
import { DeadlineReached, Prober } from './Prober.js';
import { readResults, resultOf } from './readResults.js';
import type { Observed } from './readResults.js';
import { readTimestampDeltas } from './readTimestampDeltas.js';
import { sampleHeights } from './sampleHeights.js';
import type { HeightSamples } from './sampleHeights.js';

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
  out.push(['genesisHeight', r.genesisHeight, true], ['genesisBlock', { ...r.genesisBlock }, true], ['hexCase', r.hexCase, true], ['timestamps', r.timestamps, true]);
  out.push(['integers', r.integers, true], ['methodIntegers', r.methodIntegers, true]);
  for (const key of ['identifiers', 'scores', 'unknownHeight', 'unknownAccount', 'txResult', 'faucet', 'faucetCredit'] as const) out.push([key, r[key], true]);
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
  const prober = new Prober(options.url, started + (options.deadlineMs ?? DEFAULT_DEADLINE_MS), options.signal, progress);
  const codec = options.codec ?? referenceCodec;
  const found = new Map<string, Finding>();
  const add = (fs: readonly Finding[]): void => {
    for (const f of fs) found.set(f.key, f);
  };
  const warnings: string[] = [];
  let heightReads = 0;
  let stopped = false;
  const step = async (name: string, run: () => Promise<void>): Promise<void> => {
    if (stopped) return;
    progress(`${name} ...`);
    try {
      await run();
      // Steps that stop gracefully (the bisections keep their bounds) still end the detection here.
      if (prober.remainingMs() <= 0 || options.signal?.aborted === true) {
        stopped = true;
        warnings.push(`${name}: cut short by the deadline; the probes after it keep the reference defaults`);
      }
    } catch (error) {
      if (error instanceof DeadlineReached) {
        stopped = true;
        warnings.push(`${name}: not finished (${error.message}); it and the probes after it keep the reference defaults`);
        return;
      }
      // A probe that breaks on an answer it did not foresee must not cost the rest of the draft.
      warnings.push(`${name}: failed (${error instanceof Error ? error.message : String(error)}); its keys keep the reference defaults`);
    }
  };

  if (options.codecModule !== undefined) add([given('codec', options.codecModule, `--codec ${options.codecModule} (${codec.name})`)]);
  else if (options.codec !== undefined) add([given('codec', codec.name, `the codec given (${codec.name}); a profile file names its module`, false)]);
  try {
    progress(`detecting ${options.url} (deadline ${(options.deadlineMs ?? DEFAULT_DEADLINE_MS) / 1000} s)`);
    const path = await detectRpcPath(prober, options.rpcPath);
    add([path.finding]);
    progress(`rpcPath: ${prober.rpcPath} (${path.finding.evidence})`);
    const unknownMethod: StandardErrorAnswer | undefined = path.unknownMethod === undefined ? undefined : { name: 'MethodNotFound', what: `POST ${prober.rpcPath} an unknown method (${UNKNOWN_METHOD})`, outcome: path.unknownMethod };

    let methods: MethodsDetected | undefined;
    await step('method names', async () => {
      methods = await detectMethods(prober, options.methodPrefix);
      add(methods.findings);
      const missing = methods.findings.find((f) => f.key === 'methods');
      if (missing !== undefined) warnings.push(`methods ${missing.evidence}`);
    });
    if (methods !== undefined) await probeWith(methods, unknownMethod);
  } finally {
    await prober.close();
  }

  /** Everything after the endpoint and the method names. */
  async function probeWith(m: MethodsDetected, unknownMethod: StandardErrorAnswer | undefined): Promise<void> {
    const fresh = randomBytes(32).toString('hex');
    const sentAddresses = [fresh];

    let samples: HeightSamples = { rises: [], first: undefined, polls: 0, spentMs: 0 };
    await step('block time (sampling the height)', async () => {
      if (m.served('chain_blockNumber')) samples = await sampleHeights(prober, m);
      heightReads = samples.polls;
    });

    let observed: Observed = { genesisEvidence: '' };
    let chainId: bigint | undefined;
    await step('results and encodings', async () => {
      observed = await readResults(prober, m, fresh);
      add(detectEncodings(observed));
      const health = detectHealth(observed.health);
      add(health.findings);
      chainId = health.chainId;
      add(await detectUnknowns(prober, m, observed));
    });
    const genesisHeight = observed.genesisHeight ?? 0;

    await step('params', async () => {
      const address = randomBytes(32).toString('hex');
      sentAddresses.push(address);
      add(await detectParams(prober, m, address, genesisHeight));
    });
    await step('HTTP statuses', async () => add(await detectHttp(prober, m, unknownMethod)));

    await step('block time', async () => {
      const timestamps = found.get('timestamps');
      // The tip now (the chain went on while the other probes ran): more recent blocks to time.
      const now = timestamps?.basis === 'probed' ? await prober.call(m.wire('chain_blockNumber'), []) : undefined;
      const tip = now?.kind === 'result' ? integerOf(now.result)?.value : undefined;
      const deltas = tip !== undefined ? await readTimestampDeltas(prober, m, tip, genesisHeight) : [];
      add([decideBlockTime(samples, deltas)]);
    });
    const blockTimeMs = typeof found.get('blockTimeMs')?.value === 'number' ? (found.get('blockTimeMs')?.value as number) : REFERENCE_SETTINGS.blockTimeMs;

    // Faucet: the claimed address is a codec key, so a node that refuses free transfers can be sent a funded one.
    const claimKey = codec.newKey();
    const results: JsonValue[] = [];
    const observations: FieldObservation[] = [];
    let funded = false;
    if (options.faucet === false) add([fallback('faucet', referenceProfile().faucet, 'not probed (--no-faucet)')]);
    else if (!m.served('chain_faucetClaim')) add([probed('faucet', false, 'high', `${m.wire('chain_faucetClaim')} is not served (see methods)`)]);
    else
      await step('faucet', async () => {
        sentAddresses.push(claimKey.address);
        const faucet = await detectFaucet(prober, m, claimKey.address);
        add(faucet.findings);
        funded = faucet.funded;
        const claimed = resultOf(faucet.claim);
        if (faucet.claim !== undefined && claimed !== undefined) {
          results.push(claimed);
          observations.push({ source: faucet.claim.call, result: claimed, names: faucet.credit === 'transaction' ? RESULT_FIELDS.faucet : ['amount'] });
        }
      });

    if (options.chainId !== undefined) add([given('chainId', options.chainId, '--chain-id')]);
    else if (chainId !== undefined) add([probed('chainId', chainId, 'high', 'chain_health\'s chain_id; not written: the suite reads it from chain_health itself', false)]);
    else add([fallback('chainId', 1, 'chain_health carries no chain id; the suite signs for 1 (give --chain-id if that is wrong)', false)]);
    const signFor = options.chainId ?? chainId ?? 1n;

    if (options.transactions === false) add([fallback('txResult', referenceProfile().txResult, 'not probed (--no-transactions)')]);
    else if (!m.served('chain_sendRawTransaction')) add([fallback('txResult', referenceProfile().txResult, `${m.wire('chain_sendRawTransaction')} is not served`)]);
    else
      await step('transactions', async () => {
        const tx = await detectTransactions(prober, m, {
          codec,
          chainId: signFor,
          chainIdSource: options.chainId !== undefined ? '--chain-id' : chainId !== undefined ? 'chain_health' : 'default',
          fee: referenceProfile().fee,
          funded: funded ? claimKey : undefined,
          blockTimeMs,
        });
        add(tx.findings);
        warnings.push(...tx.warnings);
        results.push(...tx.results);
        if (tx.txObject !== undefined) {
          const result = resultOf(tx.txObject);
          if (result !== undefined) observations.push({ source: tx.txObject.call, result, names: RESULT_FIELDS.tx, known: { transaction_hash: tx.txObject.hashKey } });
        }
        if (found.get('txResult')?.basis === 'probed' && !found.has('codec')) add([probed('codec', codec.name, 'high', `the node accepted a transfer signed with ${codec.name}`, false)]);
      });

    if (options.limits === false) add([fallback('maxBodyBytes', null, 'not probed (--no-limits)'), fallback('maxBatch', null, 'not probed (--no-limits)')]);
    else {
      // A method the node serves with no params: its answers are what a served probe looks like.
      const quiet = (['chain_blockNumber', 'net_peerCount', 'chain_health'] as const).find((spec) => m.served(spec));
      if (quiet === undefined) add([fallback('maxBodyBytes', null, 'no method that takes no params is served to probe with'), fallback('maxBatch', null, 'no method that takes no params is served to probe with')]);
      else {
        let maxBodyBytes: number | undefined;
        await step('body size limit', async () => {
          const body = await detectBodyLimit(prober, m.wire(quiet));
          add(body.findings);
          maxBodyBytes = body.maxBodyBytes;
        });
        await step('batch size limit', async () => add(await detectBatchLimit(prober, m.wire(quiet), maxBodyBytes)));
      }
    }

    // Decisions over everything read.
    const blocks = [observed.tip, observed.genesis].flatMap((r) => (r === undefined ? [] : [{ source: r.call, result: resultOf(r) ?? null, names: RESULT_FIELDS.block }]));
    const reads: FieldObservation[] = [
      ...(observed.health ? [{ source: observed.health.call, result: resultOf(observed.health) ?? null, names: RESULT_FIELDS.health }] : []),
      ...blocks,
      ...(observed.account ? [{ source: observed.account.call, result: resultOf(observed.account) ?? null, names: RESULT_FIELDS.account }] : []),
      ...(observed.pouLocal ? [{ source: observed.pouLocal.call, result: resultOf(observed.pouLocal) ?? null, names: RESULT_FIELDS.pouLocal }] : []),
      ...(observed.pouPeers ? [{ source: observed.pouPeers.call, result: resultOf(observed.pouPeers) ?? null, names: RESULT_FIELDS.pouPeers }] : []),
      ...observations,
    ];
    add(decideFields(reads).findings);
    for (const r of [observed.tip, observed.genesis, observed.pouLocal, observed.pouPeers]) {
      const result = resultOf(r);
      if (result !== undefined) results.push(result);
    }
    add([decideHexCase(results, sentAddresses), decideErrorData(prober.errorData), ...decideErrorStatuses(prober.errorStatuses)]);
    if (found.get('faucet')?.value === false) {
      if (!found.has('faucetLimit')) add([probed('faucetLimit', null, 'high', 'no faucet')]);
      if (!found.has('faucetCredit')) add([fallback('faucetCredit', referenceProfile().faucetCredit, 'no faucet')]);
    }
  }

  // Every key the file writes has a finding; what no probe decided keeps its default, saying why.
  const findings: Finding[] = [];
  for (const [key, value, written] of defaults()) {
    const f = found.get(key);
    findings.push(f ?? fallback(key, value, UNDETECTABLE[key] ?? (stopped ? 'not probed: the deadline came first' : 'not probed'), written));
    found.delete(key);
  }
  findings.push(...found.values());
  const host = new URL(options.url).host;
  const profile = buildProfileJson(`detected ${host}`, findings, { url: options.url, at: new Date(started).toISOString(), tool: `chainrpc ${packageVersion()}` });
  return { profile, findings, warnings, requests: prober.requests, heightReads, elapsedMs: Date.now() - started };
}
