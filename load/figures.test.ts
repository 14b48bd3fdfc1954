import { describe, expect, it } from 'vitest';
import { thresholdActual, thresholdSaid } from './figures.js';

describe('a threshold\'s figure in words', () => {
  it('says what a count counts, and why a figure of a run with faults has no value', () => {
    expect(thresholdSaid({ metric: 'p99', unit: 'ms', actual: 12.5 })).toBe('actual 12.5 ms');
    expect(thresholdActual({ metric: 'duplicate-tx', unit: 'count', actual: 1 })).toBe('1 transaction');
    expect(thresholdActual({ metric: 'mn1:stalls', unit: 'count', actual: 2 })).toBe('2 stalls');
    // A node that never answered again was measured to the end of the run: it did not recover (an outside tester).
    expect(thresholdSaid({ metric: 'recovery', unit: 'ms', actual: null })).toBe('not recovered by the end');
    expect(thresholdSaid({ metric: 'failover', unit: 'ms', actual: null })).toBe('no next block by the end');
    expect(thresholdSaid({ metric: 'forks', unit: 'count', actual: null })).toBe('not compared (the node did not answer after the run, or no other did)');
    expect(thresholdSaid({ metric: 'p99', unit: 'ms', actual: null })).toBe('nothing measured');
  });
});
