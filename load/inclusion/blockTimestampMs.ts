import type { JsonValue } from '../../core/json/index.js';
import type { Profile } from '../../profile/Profile.js';
import { asInteger, readField } from '../../profile/readWire.js';

/** A block's timestamp as epoch milliseconds, in the profile's encoding (ms, seconds or ISO 8601); undefined if unreadable. */
export function blockTimestampMs(profile: Profile, block: JsonValue): number | undefined {
  const raw = readField(profile, block, 'timestamp');
  if (profile.timestamps === 'iso8601') {
    const ms = typeof raw === 'string' ? Date.parse(raw) : NaN;
    return Number.isFinite(ms) ? ms : undefined;
  }
  const n = asInteger(raw);
  if (n === undefined) return undefined;
  return Number(n) * (profile.timestamps === 'seconds' ? 1000 : 1);
}
