/**
 * Differential runs: a valid case goes to every node, and their answers are compared as two honest nodes of one
 * chain must agree at one moment, under the run's profile: profile/compareAnswers.ts says how each method is
 * compared (exactly, by shape, or not at all) and what form an answer is compared in; docs/fuzz.md lists it.
 * A disagreement's message leads with where the two results first differ (`/timestamp: 1700000000 vs
 * 1700000001`): the excerpts of both after it are cut, often before the field that differs.
 */
import { parseJson, stringifyJson, type JsonValue } from '../../core/json/index.js';
import { agreementFor, canonicalAnswer, disagreement, isMap, type Agreement, type CallAnswer } from '../../profile/compareAnswers.js';
import type { Profile } from '../../profile/Profile.js';
import { isObject } from '../../profile/readWire.js';
import type { FuzzAnswer, FuzzCase, Violation } from '../model.js';
import type { ChainView } from './chainContext.js';

/** How two answers to this case must agree. */
export function comparisonLevel(c: Pick<FuzzCase, 'method' | 'json'>, chain: Pick<ChainView, 'height'>): Agreement {
  return agreementFor(c.method, isObject(c.json) ? c.json.params : undefined, chain.height);
}

function read(answer: FuzzAnswer): CallAnswer | undefined {
  if (answer.text === undefined || answer.failure !== undefined) return undefined;
  try {
    const value = parseJson(answer.text);
    if (!isObject(value)) return undefined;
    if ('result' in value) return { result: value.result };
    if (isObject(value.error) && typeof value.error.code === 'number') return { error: value.error.code };
  } catch {
    // Not JSON: the envelope oracle says so; nothing to compare.
  }
  return undefined;
}

/** A disagreement between `first`'s answer and `other`'s, or undefined when they agree as far as the case allows. */
export function compareAnswers(c: FuzzCase, first: FuzzAnswer, other: FuzzAnswer, profile: Profile, chain: Pick<ChainView, 'height'>): Violation | undefined {
  const level = comparisonLevel(c, chain);
  const a = read(first);
  const b = read(other);
  if (level === 'none' || a === undefined || b === undefined || c.method === undefined) return undefined;
  const message = disagreement(level, c.method, { profile, answer: a }, { profile, answer: b });
  if (message === undefined) return undefined;
  const x = canonicalAnswer(profile, c.method, a);
  const y = canonicalAnswer(profile, c.method, b);
  const where = 'result' in x && 'result' in y ? firstDifference(x.result, y.result, level === 'shape', '', c.method === 'chain_pouPeers') : undefined;
  return {
    oracle: 'disagreement',
    message: where === undefined ? message : `first difference at ${where}; ${message}`,
    source: 'differential: two nodes of one chain, one profile (docs/fuzz.md, "Differential runs")',
    excerpt: clip(other.text),
  };
}

type Json = Record<string, JsonValue>;
const asObject = (v: JsonValue | undefined): Json | undefined => (v !== undefined && isObject(v) ? v : undefined);

/** A JSON Pointer step (RFC 6901): `~` and `/` escaped. */
const step = (key: string | number): string => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The kind of a canonical value, as a comparison by shape sees it. */
function kindOf(v: JsonValue | undefined, peers: boolean): string {
  if (v === undefined) return '(absent)';
  if (Array.isArray(v)) return 'array';
  const o = asObject(v);
  if (o !== undefined) return isMap(o, peers) ? 'map' : 'object';
  if (typeof v === 'bigint' || typeof v === 'number') return 'number';
  return v === null ? 'null' : typeof v;
}

const shown = (v: JsonValue | undefined): string => (v === undefined ? '(absent)' : clip(stringifyJson(v), 60));

/**
 * Where two canonical results first differ, as `<JSON Pointer>: <first's> vs <other's>` (`the result itself`
 * for the whole), keys in the canonical (sorted) order; undefined when they do not differ. By shape, what
 * differs is a kind of value or a key, not a value (so a map or an array's length never differs). Maps as
 * profile/compareAnswers.ts reads them (`peers`: chain_pouPeers' keys are peer identifiers).
 */
export function firstDifference(x: JsonValue | undefined, y: JsonValue | undefined, byShape: boolean, path = '', peers = false): string | undefined {
  const at = path === '' ? 'the result itself' : path;
  const [kx, ky] = [kindOf(x, peers), kindOf(y, peers)];
  if (kx !== ky) return `${at}: ${byShape ? kx : shown(x)} vs ${byShape ? ky : shown(y)}`;
  if (Array.isArray(x) && Array.isArray(y)) {
    if (byShape) return undefined;
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      const found = firstDifference(x[i], y[i], byShape, `${path}${step(i)}`, peers);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const [ox, oy] = [asObject(x), asObject(y)];
  if (ox !== undefined && oy !== undefined) {
    if (byShape && isMap(ox, peers)) return undefined;
    for (const key of [...new Set([...Object.keys(ox), ...Object.keys(oy)])].sort()) {
      const found = firstDifference(ox[key], oy[key], byShape, `${path}${step(key)}`, peers);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return byShape || stringifyJson(x ?? null) === stringifyJson(y ?? null) ? undefined : `${at}: ${shown(x)} vs ${shown(y)}`;
}

const clip = (text: string | undefined, n = 300): string => (text === undefined ? '' : text.length > n ? `${text.slice(0, n)}…` : text);
