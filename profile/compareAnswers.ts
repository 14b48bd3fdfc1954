/**
 * Two nodes' answers to one call, compared as two honest nodes of one chain must agree at one moment, each read
 * under its own profile (docs/replay.md, "The diff"; docs/fuzz.md, "Differential runs"). Each answer is first put in
 * one form whatever the node's legal choices (canonicalAnswer): the spec's key names, integers as integers however
 * written, identifiers in lower-case hex without a prefix, timestamps in milliseconds, an error as the spec's
 * name for its code, a null block under `unknownHeight: "null"` as the BlockNotFound it stands for (a null account
 * under `unknownAccount: "null"` as AccountNotFound). Then:
 *
 *   exact  the same canonical answer: chain_getAccount, chain_getBlockByHeight when both nodes have the block or
 *          the height is well below the head, and any other method not named below
 *   shape  both results of the same shape (keys and kinds of value), or both errors of one name: what differs
 *          from one node to another at one instant: chain_blockNumber, chain_health, chain_pouLocal,
 *          chain_pouPeers, net_peerCount, rpc.discover
 *   none   not compared: chain_getBlockByHeight within 2 blocks of the head (one node may have it first),
 *          chain_sendRawTransaction (the other node may hold the transaction already, relayed), chain_faucetClaim
 */
import { stringifyJson, type JsonValue } from '../core/json/index.js';
import type { Profile } from './Profile.js';
import { anyInteger, asInteger, isObject, specView } from './readWire.js';

export type Agreement = 'exact' | 'shape' | 'none';

/** An answer to one call: its result, or its error's code. */
export type CallAnswer = { result: JsonValue } | { error: number };

const BY_SHAPE = new Set(['chain_blockNumber', 'chain_health', 'chain_pouLocal', 'chain_pouPeers', 'net_peerCount', 'rpc.discover']);
const NOT_COMPARED = new Set(['chain_faucetClaim', 'chain_sendRawTransaction']);
/** Blocks within this many of the head may be on one node and not yet on another. */
const HEAD_MARGIN = 2n;

/** How two answers to `method` (the spec's name) with `params` must agree, the head being `head` (undefined: unknown). */
export function agreementFor(method: string | undefined, params: JsonValue | undefined, head: bigint | undefined): Agreement {
  if (method === undefined || NOT_COMPARED.has(method)) return 'none';
  if (BY_SHAPE.has(method)) return 'shape';
  if (method === 'chain_getBlockByHeight') {
    const height = asInteger(Array.isArray(params) ? params[0] : undefined);
    if (height === undefined) return 'exact'; // an invalid height: both must refuse it alike
    if (head === undefined) return 'none';
    if (height + HEAD_MARGIN <= head) return 'exact';
    return height > head + HEAD_MARGIN ? 'shape' : 'none';
  }
  return 'exact';
}

/** Why the two answers disagree as far as `agreement` asks, or undefined when they agree. */
export function disagreement(agreement: Agreement, method: string, a: { profile: Profile; answer: CallAnswer }, b: { profile: Profile; answer: CallAnswer }): string | undefined {
  if (agreement === 'none') return undefined;
  const x = canonicalAnswer(a.profile, method, a.answer);
  const y = canonicalAnswer(b.profile, method, b.answer);
  if ('error' in x !== 'error' in y) return `one node answered ${kindOf(x)}, the other ${kindOf(y)}`;
  if ('error' in x) return x.error === (y as { error: string }).error ? undefined : `the nodes refused with different errors: ${x.error} and ${(y as { error: string }).error}`;
  if (agreement === 'shape') {
    // chain_pouPeers' keys are peer identifiers, any string of 16 characters or more (no field name of a result is one there).
    const peers = method === 'chain_pouPeers';
    const [sx, sy] = [stringifyJson(shapeOf(x.result, peers)), stringifyJson(shapeOf((y as { result: JsonValue }).result, peers))];
    return sx === sy ? undefined : `the nodes answered results of different shapes: ${clip(sx)} and ${clip(sy)}`;
  }
  const [cx, cy] = [stringifyJson(x.result), stringifyJson((y as { result: JsonValue }).result)];
  return cx === cy ? undefined : `the nodes answered different results: ${clip(cx)} and ${clip(cy)}`;
}

const kindOf = (c: Canonical): string => ('error' in c ? `the error ${c.error}` : 'a result');
const clip = (text: string, n = 200): string => (text.length > n ? `${text.slice(0, n)}…` : text);

type Canonical = { result: JsonValue } | { error: string };

/** The answer in one form whatever the node's legal choices (see the file's comment). */
export function canonicalAnswer(profile: Profile, method: string, answer: CallAnswer): Canonical {
  if ('error' in answer) return { error: errorName(profile, answer.error) };
  if (answer.result === null && method === 'chain_getBlockByHeight' && profile.unknownHeight === 'null') return { error: 'BlockNotFound' };
  if (answer.result === null && method === 'chain_getAccount' && profile.unknownAccount === 'null') return { error: 'AccountNotFound' };
  if (method === 'net_peerCount') {
    // The count itself, however the profile writes it (peerCountResult: the count, a decimal string of it, or an
    // object's count field): a node writing "2" and one writing {"count": 2} say the same.
    const count = peerCountIn(profile, answer.result);
    if (count !== undefined) return { result: count };
  }
  return { result: canonical(profile, answer.result, undefined) };
}

/** net_peerCount's count as an integer under the profile (peerCountResult), undefined when the answer holds none there. */
function peerCountIn(profile: Profile, result: JsonValue): bigint | undefined {
  if (profile.peerCountResult === 'object') {
    const named = specView(profile, result);
    return isObject(named) ? anyInteger(named.count) : undefined;
  }
  return profile.peerCountResult === 'decimal' ? anyInteger(result) : asInteger(result);
}

/** The spec's name of an error code under the profile (the first name the profile gives that code), else the code. */
function errorName(profile: Profile, code: number): string {
  for (const [name, c] of Object.entries(profile.errorCodes)) if (c === code) return name;
  return String(code);
}

/** Identifiers: 32 bytes or more of hex (hashes, addresses, signatures), with or without 0x, in either case. */
const IDENTIFIER = /^(0x)?[0-9a-fA-F]{40,}$/;

function canonical(profile: Profile, value: JsonValue, key: string | undefined): JsonValue {
  if (Array.isArray(value)) return value.map((v) => canonical(profile, v, undefined));
  if (isObject(value)) {
    const named = specView(profile, value) as Record<string, JsonValue>;
    const out: Record<string, JsonValue> = {};
    for (const k of Object.keys(named).sort()) out[k] = canonical(profile, named[k] as JsonValue, k);
    return out;
  }
  if (key === 'timestamp') {
    const ms = timestampMs(profile, value);
    if (ms !== undefined) return ms;
  }
  if (typeof value === 'string') {
    if (IDENTIFIER.test(value)) return value.replace(/^0x/, '').toLowerCase();
    const n = asInteger(value);
    return n === undefined ? value : n;
  }
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  return value;
}

function timestampMs(profile: Profile, value: JsonValue): bigint | undefined {
  if (profile.timestamps === 'iso8601') {
    const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
    return Number.isFinite(ms) ? BigInt(ms) : undefined;
  }
  const n = asInteger(value);
  if (n === undefined) return undefined;
  return profile.timestamps === 'seconds' ? n * 1000n : n;
}

/**
 * Whether an object is a map: keyed by identifiers (hex; with `peers`, chain_pouPeers' scores by peer, any string of
 * 16 characters or more), compared by shape whatever its keys and however many.
 */
export function isMap(value: Record<string, JsonValue>, peers: boolean): boolean {
  const keys = Object.keys(value);
  return keys.length === 0 || keys.every((k) => IDENTIFIER.test(k) || (peers && k.length >= PEER_ID_LENGTH));
}

/** A peer identifier's least length (the spec: "string of at least 16 characters"). */
const PEER_ID_LENGTH = 16;

/**
 * The shape of a canonical value: each object's keys with their values' shapes, the kind of anything else. An
 * object keyed by identifiers (hex; in chain_pouPeers' scores by peer, `peers`, any string of 16 characters or
 * more) is a map, whatever its keys and however many: two nodes see other peers.
 */
function shapeOf(value: JsonValue, peers = false): JsonValue {
  if (Array.isArray(value)) return 'array';
  if (isObject(value)) {
    if (isMap(value, peers)) return 'map';
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, shapeOf(value[k] as JsonValue, peers)]));
  }
  if (typeof value === 'bigint' || typeof value === 'number') return 'number';
  return value === null ? 'null' : typeof value;
}
