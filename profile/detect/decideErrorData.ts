import { referenceProfile } from '../referenceProfile.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import type { ErrorDataShape } from './Prober.js';

/**
 * errorData: what the node's error objects carry in `data` (JSON-RPC 2.0 §5.1: "A Primitive or
 * Structured value ... may be omitted"), from every error answer the detection saw: an object with a
 * `reason` sentence (reference), a string, or nothing. The most common shape wins; a mix lowers the
 * confidence.
 */
export function decideErrorData(tally: ReadonlyMap<ErrorDataShape, { count: number; example: string }>): Finding {
  const asProfile = (shape: ErrorDataShape): 'object' | 'string' | 'absent' | undefined =>
    shape === 'object' || shape === 'object-without-reason' ? 'object' : shape === 'string' || shape === 'absent' ? shape : undefined;
  const counts = new Map<'object' | 'string' | 'absent', number>();
  let total = 0;
  for (const [shape, { count }] of tally) {
    const p = asProfile(shape);
    if (p === undefined) continue;
    counts.set(p, (counts.get(p) ?? 0) + count);
    total += count;
  }
  const ranked = [...counts.entries()].sort(([, a], [, b]) => b - a);
  const top = ranked[0];
  if (top === undefined) return fallback('errorData', referenceProfile().errorData, 'no error object was seen');
  const [value, count] = top;
  const shapes = [...tally.entries()].map(([shape, t]) => `${t.count} ${shape} (e.g. ${t.example})`).join('; ');
  const withoutReason = value === 'object' && (tally.get('object-without-reason')?.count ?? 0) > 0;
  const confidence = count === total && !withoutReason ? 'high' : 'medium';
  return probed('errorData', value, confidence, `${total} error object(s) seen: ${shapes}${withoutReason ? ' (some objects carry no reason)' : ''}`);
}
