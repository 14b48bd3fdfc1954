import { referenceProfile } from '../referenceProfile.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import type { ErrorDataShape } from './Prober.js';

/** The share of the error objects seen one shape must hold for the profile to state it (the rest: odd answers, such as a proxy's own). */
const ONE_SHAPE = 0.9;

/**
 * errorData: what the node's error objects carry in `data` (JSON-RPC 2.0 §5.1: "A Primitive or
 * Structured value ... may be omitted"), from every error answer the detection saw: an object with a
 * `reason` sentence (reference), a string, or nothing, when at least 90% of them have that shape (all: high
 * confidence); else 'any' (not compared): a node that keeps to no one of them (shapes mixed, objects without
 * a reason, or data of another type: an array, a number) would fail its own profile's checks under any other value.
 */
export function decideErrorData(tally: ReadonlyMap<ErrorDataShape, { count: number; example: string }>): Finding {
  const counts = new Map<'object' | 'string' | 'absent', number>();
  let total = 0;
  for (const [shape, { count }] of tally) {
    total += count;
    // An object without a reason is no 'object' (the profile's object carries a reason sentence), nor is data of
    // another JSON type (an array, a number: §5.1 allows any value) one of the shapes the profile can state.
    if (shape !== 'object-without-reason' && shape !== 'other') counts.set(shape, (counts.get(shape) ?? 0) + count);
  }
  if (total === 0) return fallback('errorData', referenceProfile().errorData, 'no error object was seen');
  const [value, count] = [...counts.entries()].sort(([, a], [, b]) => b - a)[0] ?? ['object', 0];
  const shapes = [...tally.entries()].map(([shape, t]) => `${t.count} ${shape} (e.g. ${t.example})`).join('; ');
  if (count < ONE_SHAPE * total) return probed('errorData', 'any', 'medium', `${total} error object(s) seen, of no one shape the profile can state: ${shapes}`);
  return probed('errorData', value, count === total ? 'high' : 'medium', `${total} error object(s) seen: ${shapes}`);
}
