import type { JsonValue } from '../../core/json/index.js';
import { jsonInteger } from '../../core/json/index.js';
import { describeCall, describeOutcome } from './describe.js';
import type { MethodsDetected } from './detectMethods.js';
import { integerOf } from './integerOf.js';
import { isObject } from './Prober.js';
import type { CallOutcome, Prober } from './Prober.js';

/** One call and its answer. */
export interface Read {
  /** The call as sent, for evidence. */
  readonly call: string;
  readonly outcome: CallOutcome;
}

/** The plain reads every later decision works from. */
export interface Observed {
  health?: Read;
  blockNumber?: Read;
  /** The height chain_blockNumber answered, however encoded. */
  tipHeight?: bigint;
  /** The block at the tip. */
  tip?: Read;
  genesis?: Read;
  /** Where the first block was found: 0, else 1, else the lowest height below the tip with a block; undefined when none was found. */
  genesisHeight?: bigint;
  /** What the genesis lookups sent and got. */
  genesisEvidence: string;
  /** A fresh random address's account. */
  account?: Read & { readonly address: string };
  pouLocal?: Read;
  pouPeers?: Read;
  peerCount?: Read;
}

/** "call -> answer", the evidence line of a read. */
export const readText = (r: Read): string => `${r.call} -> ${describeOutcome(r.outcome)}`;

/** The result of a read when it is one. */
export const resultOf = (r: Read | undefined): JsonValue | undefined => (r?.outcome.kind === 'result' ? r.outcome.result : undefined);

/** A block result: a JSON object (a null result or an error is no block). */
const isBlock = (o: CallOutcome): boolean => o.kind === 'result' && isObject(o.result);

/**
 * The lowest height in [low, high] with a block, by bisection (a chain that starts above 1 has a block at every
 * height from its first to its tip, spec rule 1): about log2(high) reads. undefined when `high` has none either.
 */
async function lowestBlock(read: (spec: 'chain_getBlockByHeight', params: JsonValue[]) => Promise<Read | undefined>, low: bigint, high: bigint): Promise<{ height: bigint; read: Read; reads: number } | undefined> {
  let reads = 0;
  let found: { height: bigint; read: Read } | undefined;
  while (low <= high) {
    const mid = (low + high) / 2n;
    const r = await read('chain_getBlockByHeight', [jsonInteger(mid)]);
    reads++;
    if (r === undefined) return undefined;
    if (isBlock(r.outcome)) {
      found = { height: mid, read: r };
      high = mid - 1n;
    } else low = mid + 1n;
  }
  return found === undefined ? undefined : { ...found, reads };
}

/**
 * Reads what every result-shape decision needs: chain_health, chain_blockNumber, the block at the tip
 * and the first block (height 0, else 1: spec rule 1 shows no genesis height), a fresh address's
 * account, chain_pouLocal, chain_pouPeers and net_peerCount. Methods the node does not serve are
 * skipped.
 */
export async function readResults(prober: Prober, methods: MethodsDetected, freshAddress: string): Promise<Observed> {
  const observed: Observed = { genesisEvidence: '' };
  const read = async (spec: Parameters<MethodsDetected['wire']>[0], params: JsonValue[]): Promise<Read | undefined> => {
    if (!methods.served(spec)) return undefined;
    const method = methods.wire(spec);
    return { call: describeCall(method, params), outcome: await prober.call(method, params) };
  };
  const store = <K extends 'health' | 'blockNumber' | 'tip' | 'genesis' | 'pouLocal' | 'pouPeers' | 'peerCount'>(key: K, r: Read | undefined): void => {
    if (r !== undefined) observed[key] = r;
  };
  store('health', await read('chain_health', []));
  store('blockNumber', await read('chain_blockNumber', []));
  const tip = observed.blockNumber?.outcome.kind === 'result' ? integerOf(observed.blockNumber.outcome.result)?.value : undefined;
  if (tip !== undefined) observed.tipHeight = tip;
  if (methods.served('chain_getBlockByHeight')) {
    const lookups: string[] = [];
    for (const height of [0n, 1n]) {
      const r = await read('chain_getBlockByHeight', [jsonInteger(height)]);
      if (r === undefined) break;
      lookups.push(readText(r));
      if (isBlock(r.outcome)) {
        observed.genesis = r;
        observed.genesisHeight = height;
        break;
      }
    }
    if (observed.genesisHeight === undefined && tip !== undefined && tip >= 2n && lookups.length === 2) {
      const first = await lowestBlock(read, 2n, tip);
      if (first !== undefined) {
        observed.genesis = first.read;
        observed.genesisHeight = first.height;
        lookups.push(`the lowest height with a block, by bisection between 2 and the tip ${tip} (${first.reads} reads): ${readText(first.read)}`);
      }
    }
    observed.genesisEvidence = lookups.join('; ');
    if (tip !== undefined) store('tip', await read('chain_getBlockByHeight', [jsonInteger(tip)]));
  }
  const account = await read('chain_getAccount', [freshAddress]);
  if (account !== undefined) observed.account = { ...account, address: freshAddress };
  store('pouLocal', await read('chain_pouLocal', []));
  store('pouPeers', await read('chain_pouPeers', []));
  store('peerCount', await read('net_peerCount', []));
  return observed;
}
