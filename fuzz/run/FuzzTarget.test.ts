/** The slow oracle's bound follows the median of a node's last answers (FuzzTarget.answered). */
import { afterEach, describe, expect, it } from 'vitest';
import { referenceProfile } from '../../profile/referenceProfile.js';
import { FuzzTarget } from './FuzzTarget.js';

const targets: FuzzTarget[] = [];
afterEach(async () => {
  for (const t of targets.splice(0)) await t.close();
});

function target(): FuzzTarget {
  // Nothing is sent: the client connects on its first call only.
  const t = new FuzzTarget('http://127.0.0.1:9', referenceProfile(), 2);
  targets.push(t);
  return t;
}

describe('FuzzTarget: the median answer time', () => {
  it('is the median of the answers kept, re-read every 64 answers, failures left out', () => {
    const t = target();
    expect(t.medianMs).toBe(0);
    t.answered({ status: 200, text: '', ms: 7 });
    expect(t.medianMs).toBe(7);
    // 64 more answers (1..64 ms, shuffled), failures of 5 s in between: the 64th of them (the 65th answer) re-reads it.
    const times = Array.from({ length: 64 }, (_, i) => ((i * 37) % 64) + 1);
    for (const ms of times.slice(0, 63)) {
      t.answered({ failure: { code: 'TIMEOUT', message: 'x' }, ms: 5_000 });
      t.answered({ status: 200, text: '', ms });
    }
    expect(t.medianMs).toBe(7);
    t.answered({ status: 200, text: '', ms: times[63] ?? 0 });
    // Kept: 7 and 1..64 (65 values, no failure's 5 s among them): the median is the 33rd smallest, 32.
    expect(t.medianMs).toBe(32);
    t.answered({ status: 200, text: '', ms: 100 });
    expect(t.medianMs).toBe(32);
  });

  it('keeps the last 1,024 answers only: a node that slowed down moves its bound', () => {
    const t = target();
    for (let i = 0; i < 1_024; i++) t.answered({ status: 200, text: '', ms: 1 });
    for (let i = 0; i < 1_024; i++) t.answered({ status: 200, text: '', ms: 50 });
    expect(t.medianMs).toBe(50);
  });
});
