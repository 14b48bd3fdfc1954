import { describe, expect, it } from 'vitest';
import { checkTimeoutFor } from './runSuite.js';

describe('a check\'s limit without --timeout', () => {
  it('is the default for a node that answers quickly, and grows with a slow node\'s first answer (tens of calls one after the other)', () => {
    expect(checkTimeoutFor(20_000, 3)).toBe(20_000);
    expect(checkTimeoutFor(20_000, 150)).toBe(20_000);
    // A node 400 ms away: its checks had 20 s for calls of 0.4 s each, and no verdict (measured: docs/conformance-suite.md).
    expect(checkTimeoutFor(20_000, 400)).toBe(40_000);
    expect(checkTimeoutFor(60_000, 400)).toBe(60_000);
  });
});
