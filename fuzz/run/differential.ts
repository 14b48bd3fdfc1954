/**
 * Differential runs: a valid case goes to every node, and their answers are compared as two honest nodes of one
 * chain must agree at one moment, under the run's profile: profile/compareAnswers.ts says how each method is
 * compared (exactly, by shape, or not at all) and what form an answer is compared in; docs/fuzz.md lists it.
 */
import { parseJson } from '../../core/json/index.js';
import { agreementFor, disagreement, type Agreement, type CallAnswer } from '../../profile/compareAnswers.js';
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
  return { oracle: 'disagreement', message, source: 'differential: two nodes of one chain, one profile (docs/fuzz.md, "Differential runs")', excerpt: clip(other.text) };
}

const clip = (text: string | undefined, n = 300): string => (text === undefined ? '' : text.length > n ? `${text.slice(0, n)}…` : text);
