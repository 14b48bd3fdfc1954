import { describe, expect, it } from 'vitest';
import { AwakeClock } from './AwakeClock.js';

const WALL = 1_700_000_000_000;

/** An AwakeClock on clocks the test moves (no timer): `run(ms)` is time awake in steps of the probe's interval, `hold(ms)` a pause. */
function clockOn(pauseMs = 500): { clock: AwakeClock; run(ms: number): void; hold(ms: number): void; now(): number; paused: number[] } {
  let t = 0;
  const paused: number[] = [];
  const clock = new AwakeClock(pauseMs, { monotonic: () => t, wall: () => WALL + t }, false, (ms) => paused.push(ms));
  return {
    clock,
    paused,
    now: () => WALL + t,
    run(ms) {
      for (let left = ms; left > 0; left -= pauseMs / 4) {
        t += Math.min(pauseMs / 4, left);
        clock.probe();
      }
    },
    hold(ms) {
      t += ms;
    },
  };
}

describe('AwakeClock', () => {
  it('counts every millisecond while the loop keeps running, however busy (gaps up to pauseMs are not pauses)', () => {
    const c = clockOn(500);
    const since = c.now();
    c.run(1_000);
    // Lagging: probes 500 ms apart instead of 125, exactly at the bound.
    for (let i = 0; i < 4; i++) {
      c.hold(500);
      c.clock.probe();
    }
    expect(c.clock.awakeBetween(since)).toBe(3_000);
    expect(c.paused).toEqual([]);
    expect(c.clock.latestPause()).toBeUndefined();
  });

  it('leaves out a pause longer than pauseMs, less the probe interval, and says so once', () => {
    const c = clockOn(500);
    const since = c.now();
    c.run(1_000);
    c.hold(2_500);
    // The first question after the pause notices it (no probe has run yet).
    expect(c.clock.awakeBetween(since)).toBe(1_000 + 125);
    expect(c.paused).toEqual([2_375]);
    c.run(1_000);
    expect(c.clock.awakeBetween(since)).toBe(2_000 + 125);
    expect(c.paused).toEqual([2_375]);
    expect(c.clock.latestPause()).toEqual({ from: WALL + 1_125, to: WALL + 3_500 });
  });

  it('leaves out only the part of a pause after `since`, and none of one before it', () => {
    const c = clockOn(500);
    const start = c.now();
    c.run(500);
    c.hold(2_125); // a pause of 2,000 ms: from start + 625 to start + 2,625
    c.clock.probe();
    const mid = start + 1_625;
    c.run(1_000);
    expect(c.clock.awakeBetween(mid)).toBe(1_000 + 1_000 - 1_000);
    expect(c.clock.awakeBetween(c.now() - 500)).toBe(500);
    expect(c.clock.awakeBetween(start)).toBe(3_625 - 2_000);
  });

  it('adds up several pauses, and forgets them after ten minutes', () => {
    const c = clockOn(500);
    const since = c.now();
    for (let i = 0; i < 3; i++) {
      c.run(250);
      c.hold(1_125); // noticed at the next probe, 125 ms on: a gap of 1,250, a pause of 1,125
    }
    c.run(250);
    expect(c.paused).toEqual([1_125, 1_125, 1_125]);
    expect(c.clock.awakeBetween(since)).toBe(4 * 250);
    expect(c.clock.noticed()).toHaveLength(3);
    c.run(10 * 60_000);
    c.hold(1_125);
    c.clock.probe();
    expect(c.clock.noticed()).toHaveLength(1);
  });
});
