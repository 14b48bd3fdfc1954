import { describe, expect, it } from 'vitest';
import { parseThreshold } from '../scenario/Threshold.js';
import { k6ReplayThresholds, replayIterations } from './writeK6Replay.js';
import { K6Unsupported } from './writeK6Script.js';

describe('replayIterations: the requests a k6 replay sends', () => {
  it('is every request once without a loop, and those due within the window with one', () => {
    const at = [0, 100, 200];
    expect(replayIterations(at, 300, 1_000, false)).toBe(3);
    // A window shorter than one pass: the requests due after it stay unsent, as the Node engine's.
    expect(replayIterations(at, 300, 150, false)).toBe(2);
    // Passes start at 0, 300, 600, 900: 3 + 3 + 3 + (900) 1; the one due at 1000 is outside [0, 1000), as the Node engine's.
    expect(replayIterations(at, 300, 1_000, true)).toBe(10);
    expect(replayIterations(at, 300, 1_000.5, true)).toBe(11);
    expect(replayIterations(at, 300, 200, false)).toBe(2);
  });
});

describe('k6ReplayThresholds', () => {
  const t = (...texts: string[]) => texts.map((x) => parseThreshold(x));

  it('judges latency (from each request\'s time) and errors, by method too, and leaves out what a k6 replay cannot see', () => {
    const { thresholds, notJudged } = k6ReplayThresholds(t('p99 < 50ms', 'chain_health:max <= 2s', 'errors < 1%', 'dropped == 0', 'service-p99 < 10ms'));
    // The run's latency per request; a method's per call (as the merged figures count them).
    expect(thresholds).toEqual({ chainrpc_latency: ['p(99)<50'], 'chainrpc_call_latency{method:chain_health}': ['max<=2000'], chainrpc_call_failed: ['rate<0.01'] });
    expect(notJudged).toEqual(['dropped == 0', 'service-p99 < 10ms']);
  });

  it('refuses a diff\'s threshold: a k6 test sends to one node', () => {
    expect(() => k6ReplayThresholds(t('mismatches == 0'))).toThrow(K6Unsupported);
  });
});
