import { describe, expect, it } from 'vitest';
import { classifyTimestamp } from './classifyTimestamp.js';

const NOW = Date.parse('2026-01-15T12:00:00Z');

describe('classifyTimestamp', () => {
  it('milliseconds, seconds and ISO 8601, each plausible near now', () => {
    expect(classifyTimestamp(NOW - 1000, NOW)).toEqual({ unit: 'milliseconds', ms: NOW - 1000, plausible: true });
    expect(classifyTimestamp(Math.floor(NOW / 1000), NOW)).toEqual({ unit: 'seconds', ms: NOW, plausible: true });
    expect(classifyTimestamp('2026-01-15T11:59:59.500Z', NOW)).toEqual({ unit: 'iso8601', ms: NOW - 500, plausible: true });
    expect(classifyTimestamp('2026-01-15T12:00:00+01:00', NOW)?.unit).toBe('iso8601');
  });

  it('reads hex quantities and bigints as integers', () => {
    expect(classifyTimestamp(`0x${NOW.toString(16)}`, NOW)?.unit).toBe('milliseconds');
    expect(classifyTimestamp(BigInt(Math.floor(NOW / 1000)), NOW)?.unit).toBe('seconds');
  });

  it('says when a value is far from the clock', () => {
    expect(classifyTimestamp(1_000_000_000_000, NOW)).toEqual({ unit: 'milliseconds', ms: 1_000_000_000_000, plausible: false });
  });

  it('nothing for a genesis 0, fractions, text, or values between the ranges', () => {
    for (const v of [0, 12, 1.5e12 + 0.5, 'yesterday', null, 5e11, '2026-01-15']) expect(classifyTimestamp(v, NOW)).toBeUndefined();
  });
});
