import type { JsonValue } from '../../core/json/index.js';
import { referenceProfile } from '../referenceProfile.js';
import { fallback, probed } from './Finding.js';
import type { Finding } from './Finding.js';
import { hexCaseOf, hexStrings } from './hexCaseOf.js';

/**
 * hexCase: the case of every 64-hex hash and identifier in the results read (docs/interface.md#address:
 * 64 hexadecimal characters, either case). Values the detection sent itself (its fresh addresses) are
 * left out, since a node echoing them shows the client's case, not its own; values of digits only
 * (genesis zeros) say nothing.
 */
export function decideHexCase(results: readonly JsonValue[], sent: readonly string[]): Finding {
  const mine = new Set(sent.map((s) => s.toLowerCase()));
  const values: string[] = [];
  for (const r of results) values.push(...hexStrings(r).filter((v) => !mine.has(v.toLowerCase())));
  const reading = hexCaseOf(values);
  const counts = `${values.length} 64-hex value(s) in results: ${reading.lower} lower, ${reading.upper} upper, ${reading.mixed} mixed, ${values.length - reading.lower - reading.upper - reading.mixed} digits only`;
  if (reading.hexCase === undefined) return fallback('hexCase', referenceProfile().hexCase, `${counts}: none has a letter`);
  return probed('hexCase', reading.hexCase, reading.lower + reading.upper + reading.mixed >= 3 ? 'high' : 'medium', counts);
}
