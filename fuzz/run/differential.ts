/**
 * Differential runs: a valid case goes to every node, and their answers are compared after the profile's
 * normalization (specView: the spec's key names, whatever the spelling). What two honest nodes of one chain
 * may answer differently at one moment is compared by kind only (both a result, or both an error) or not at
 * all; docs/fuzz.md lists each:
 *
 *   exact  chain_getAccount (the spec's fields), chain_getBlockByHeight at least 2 blocks below the head
 *          (a block both have), the error code of any error both give
 *   kind   chain_blockNumber, chain_health, chain_pouLocal, chain_pouPeers, net_peerCount, rpc.discover,
 *          chain_sendRawTransaction (mempools differ), chain_getBlockByHeight far above the head
 *   none   chain_getBlockByHeight within 2 blocks of the head (one node may have it first), chain_faucetClaim
 */
import { parseJson, stringifyJson, type JsonValue } from '../../core/json/index.js';
import type { Profile } from '../../profile/Profile.js';
import { isObject, specView } from '../../profile/readWire.js';
import type { FuzzAnswer, FuzzCase, Violation } from '../model.js';
import type { ChainView } from './chainContext.js';

type Level = 'exact' | 'kind' | 'none';

const BY_KIND = new Set(['chain_blockNumber', 'chain_health', 'chain_pouLocal', 'chain_pouPeers', 'net_peerCount', 'rpc.discover', 'chain_sendRawTransaction']);
/** Blocks within this many of the head may be on one node and not yet on another. */
const HEAD_MARGIN = 2n;

/** How two answers to this case must agree. */
export function comparisonLevel(c: Pick<FuzzCase, 'method' | 'json'>, chain: Pick<ChainView, 'height'>): Level {
  const method = c.method;
  if (method === undefined || method === 'chain_faucetClaim') return 'none';
  if (BY_KIND.has(method)) return 'kind';
  if (method === 'chain_getBlockByHeight') {
    const params = isObject(c.json) ? c.json.params : undefined;
    const h = Array.isArray(params) ? params[0] : undefined;
    if (typeof h !== 'number' && typeof h !== 'bigint') return 'kind';
    const height = BigInt(h);
    if (height + HEAD_MARGIN <= chain.height) return 'exact';
    return height > chain.height + HEAD_MARGIN ? 'kind' : 'none';
  }
  return 'exact';
}

interface Read {
  result?: JsonValue;
  code?: JsonValue;
}

function read(answer: FuzzAnswer): Read | undefined {
  if (answer.text === undefined || answer.failure !== undefined) return undefined;
  try {
    const value = parseJson(answer.text);
    if (!isObject(value)) return undefined;
    if ('result' in value) return { result: value.result };
    if (isObject(value.error)) return { code: value.error.code as JsonValue };
  } catch {
    // Not JSON: the envelope oracle says so; nothing to compare.
  }
  return undefined;
}

const same = (a: JsonValue | undefined, b: JsonValue | undefined): boolean => stringifyJson(a ?? null) === stringifyJson(b ?? null);
const kindOf = (r: Read): string => ('result' in r ? 'a result' : `error ${stringifyJson(r.code ?? null)}`);

/** A disagreement between `first`'s answer and `other`'s, or undefined when they agree as far as the case allows. */
export function compareAnswers(c: FuzzCase, first: FuzzAnswer, other: FuzzAnswer, profile: Profile, chain: Pick<ChainView, 'height'>): Violation | undefined {
  const level = comparisonLevel(c, chain);
  if (level === 'none') return undefined;
  const a = read(first);
  const b = read(other);
  if (a === undefined || b === undefined) return undefined;
  const source = 'differential: two nodes of one chain, one profile (docs/fuzz.md, "Differential runs")';
  if ('result' in a !== 'result' in b) return { oracle: 'disagreement', message: `one node answered ${kindOf(a)}, the other ${kindOf(b)}`, source, excerpt: clip(other.text) };
  if (level === 'kind') return undefined;
  if ('code' in a && !same(a.code, b.code)) return { oracle: 'disagreement', message: `the nodes refused with different codes: ${stringifyJson(a.code ?? null)} and ${stringifyJson(b.code ?? null)}`, source, excerpt: clip(other.text) };
  if ('result' in a && !same(normal(profile, a.result), normal(profile, b.result))) {
    return { oracle: 'disagreement', message: `the nodes answered different results: ${clip(stringifyJson(normal(profile, a.result)), 200)} and ${clip(stringifyJson(normal(profile, b.result)), 200)}`, source, excerpt: clip(other.text) };
  }
  return undefined;
}

const normal = (profile: Profile, v: JsonValue | undefined): JsonValue => (v === undefined ? null : specView(profile, v));
const clip = (text: string | undefined, n = 300): string => (text === undefined ? '' : text.length > n ? `${text.slice(0, n)}…` : text);
