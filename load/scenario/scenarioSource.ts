/**
 * The request source of a scenario (the engine's `SourceSpec` module for every built-in and user scenario):
 * each request is drawn by weight from the mix, its params from what the run learnt from the chain, its
 * method renamed by the profile. Made in whichever thread sends, from JSON options.
 */
import { stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';
import type { Validators } from '../../core/schema/validators.js';
import { loadProfileSource, type ProfileSource } from '../../profile/loadProfile.js';
import { asInteger, readField } from '../../profile/readWire.js';
import { ReadWatch, WATCHED_READS } from '../health/ReadWatch.js';
import { profileValidators } from '../../profile/profileSchemas.js';
import type { CallResult, PlannedCall, PlannedRequest, RequestSource, SourceShare } from '../engine/RequestSource.js';
import { drawParams } from '../requests/drawParams.js';
import { createTransactionLanes, type TransactionLanes } from '../requests/chain_sendRawTransaction.js';
import type { DrawContext } from '../requests/DrawContext.js';
import type { ResolvedCall, ResolvedEntry } from './loadScenario.js';
import type { ReadMethod } from './Scenario.generated.js';
import { seededRandom } from '../../core/seededRandom.js';

/** The JSON options of a scenario source. */
export interface ScenarioSourceOptions {
  mix: ResolvedEntry[];
  /** Wire names by the spec's method names (the profile's renames). */
  wire: Record<string, string>;
  heights: { from: number; to: number } | null;
  accounts: string[];
  /** The fraction of calls whose result is validated. */
  validate: number;
  seed: number;
  /** The profile file, a detected profile's JSON, or null for the reference profile (results are validated against its choices). */
  profile: ProfileSource;
  /** The corpus to send chain_sendRawTransaction from, when the mix sends transactions. */
  transactions: { corpus: string; batchSize: number; resumeAt?: Record<string, number> } | null;
}

/** Picks an index by weight. */
function weighted<T extends { weight: number }>(items: readonly T[], random: () => number): T {
  const total = items.reduce((n, i) => n + i.weight, 0);
  let x = random() * total;
  for (const item of items) {
    x -= item.weight;
    if (x < 0) return item;
  }
  return items[items.length - 1] as T;
}

const entryWeight = (e: ResolvedEntry): number => (e.kind === 'call' ? e.call.weight : e.weight);

export async function createSource(raw: JsonValue, share: SourceShare): Promise<RequestSource> {
  const options = raw as unknown as ScenarioSourceOptions;
  // Each thread draws its own sequence from the same seed.
  const random = seededRandom((options.seed * 1_000_003 + share.index) >>> 0);
  const ctx: DrawContext = { heights: options.heights, accounts: options.accounts, random };
  const wire = (method: string): string => options.wire[method] ?? method;
  const spec = new Map(Object.entries(options.wire).map(([s, w]) => [w, s]));
  const profile = await loadProfileSource(options.profile);
  const validators: Validators | undefined = options.validate > 0 ? profileValidators(profile) : undefined;
  const reads = new ReadWatch();
  const watched = new Set(WATCHED_READS.map(wire));
  // A lane whose send failed reads its sender's nonce before it sends again: the chain may have taken it, or lost
  // what came before (a node killed in a run with faults). Earlier transactions get 5 block times to show.
  const resync = { accountMethod: wire('chain_getAccount'), nonceOf: (result: JsonValue) => { const n = asInteger(readField(profile, result, 'nonce')); return n === undefined ? undefined : Number(n); }, settleMs: 5 * profile.blockTimeMs, retryMs: Math.max(100, profile.blockTimeMs / 2) };
  const lanes: TransactionLanes | undefined = options.transactions === null ? undefined : createTransactionLanes({ ...options.transactions, method: wire('chain_sendRawTransaction') }, share, resync);
  const entries = options.mix.map((e) => ({ entry: e, weight: entryWeight(e) }));
  let nextId = 1;

  const call = (c: ResolvedCall): { text: string; planned: PlannedCall } => {
    const id = nextId++;
    const method = wire(c.method);
    const params = c.params ?? drawParams(c.method as ReadMethod, ctx);
    const validate = validators !== undefined && random() < options.validate;
    const planned: PlannedCall = validate ? { id, method, validate } : { id, method };
    // A read whose answer must not go backwards, keyed by its first param (a height, an address) as the mix draws it.
    const key = Array.isArray(params) ? params[0] : undefined;
    if (watched.has(method) && (method === wire('chain_blockNumber') || typeof key === 'string' || typeof key === 'number' || typeof key === 'bigint')) {
      planned.observe = typeof key === 'string' || typeof key === 'number' || typeof key === 'bigint' ? String(key) : '';
    }
    return { text: `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${stringifyJson(params)}}`, planned };
  };

  return {
    next(): PlannedRequest | null | undefined {
      const { entry } = weighted(entries, random);
      if (entry.kind === 'transactions') {
        if (lanes === undefined) throw new Error('the mix sends transactions but the source has no corpus');
        return lanes.next();
      }
      if (entry.kind === 'call') {
        const one = call(entry.call);
        return { body: Buffer.from(one.text), calls: [one.planned], batch: false };
      }
      const parts = Array.from({ length: entry.size }, () => call(weighted(entry.mix, random)));
      return { body: Buffer.from(`[${parts.map((p) => p.text).join(',')}]`), calls: parts.map((p) => p.planned), batch: true };
    },
    onEnded(request: PlannedRequest, outcomes?: readonly CallResult[]): void {
      lanes?.ended(request, outcomes);
    },
    lanes: () => lanes?.ledger(),
    observe(planned: PlannedCall, result: JsonValue, writtenMs: number, endedMs: number): void {
      const key = planned.observe ?? '';
      if (planned.method === wire('chain_blockNumber')) {
        const height = asInteger(result);
        if (height !== undefined) reads.height(height, writtenMs, endedMs);
      } else if (planned.method === wire('chain_getBlockByHeight')) {
        const hash = readField(profile, result, 'hash');
        if (typeof hash === 'string') reads.block(key, hash, endedMs);
      } else {
        const nonce = asInteger(readField(profile, result, 'nonce'));
        if (nonce !== undefined) reads.nonce(key, nonce, writtenMs, endedMs);
      }
    },
    reads: () => reads.figures(),
    checkResult(method: string, result: JsonValue): boolean {
      const name = spec.get(method) ?? method;
      return validators === undefined || validators.result(name, result).ok;
    },
    close: () => lanes?.close(),
  };
}
