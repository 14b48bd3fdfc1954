import type { JsonValue } from '../../core/json/index.js';
import { integerOf } from './integerOf.js';

export type TimestampUnit = 'milliseconds' | 'seconds' | 'iso8601';

export interface TimestampReading {
  unit: TimestampUnit;
  /** Milliseconds since the epoch it stands for. */
  ms: number;
  /** Within a year of the detecting machine's clock: the reading is surely right. */
  plausible: boolean;
}

/** ISO 8601 date and time (RFC 3339 profile), as block explorers and many nodes write it. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * What unit a (non-genesis) block timestamp is in: an integer from 10^12 (September 2001 in ms) is
 * milliseconds, one from 10^9 to below 10^11 (2001 to 5138 in s) is seconds, an ISO 8601 string is
 * iso8601. The ranges do not overlap, so one value decides; `plausible` says whether it is near `nowMs`.
 * undefined: not a timestamp in any of these forms (a genesis 0, text, a fraction).
 */
export function classifyTimestamp(value: JsonValue | undefined, nowMs: number): TimestampReading | undefined {
  const near = (ms: number): boolean => Math.abs(ms - nowMs) < YEAR_MS;
  if (typeof value === 'string' && ISO_8601.test(value)) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : { unit: 'iso8601', ms, plausible: near(ms) };
  }
  const n = integerOf(value)?.value;
  if (n === undefined) return undefined;
  if (n >= 10n ** 12n && n < 10n ** 16n) return { unit: 'milliseconds', ms: Number(n), plausible: near(Number(n)) };
  if (n >= 10n ** 9n && n < 10n ** 11n) return { unit: 'seconds', ms: Number(n) * 1000, plausible: near(Number(n) * 1000) };
  return undefined;
}
