import { afterEach, describe, expect, it } from 'vitest';
import { Alarm } from './Alarm.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** An alarm whose rings are kept (the time each came), once its thread runs. */
async function readyAlarm(): Promise<{ alarm: Alarm; rings: number[] }> {
  const rings: number[] = [];
  const alarm = new Alarm(() => rings.push(performance.now()));
  opened.push(alarm);
  for (let waited = 0; !alarm.ready; waited += 5) {
    if (waited > 10_000) throw new Error('the alarm thread did not start within 10 s');
    await sleep(5);
  }
  return { alarm, rings };
}

/** Waits until `rings` holds a ring (5 s at most; a test then finds none). */
async function firstRing(rings: readonly number[]): Promise<void> {
  for (let waited = 0; rings.length === 0 && waited < 5_000; waited += 5) await sleep(5);
}

const opened: Alarm[] = [];
afterEach(() => {
  for (const a of opened.splice(0)) a.close();
});

/** The clocks of the two threads are one (CLOCK_MONOTONIC); converting between them may round by a few ns. */
const ROUNDING_MS = 0.001;

describe('Alarm', () => {
  it('rings once, never before the time it was set to', async () => {
    const { alarm, rings } = await readyAlarm();
    const at = performance.now() + 20;
    alarm.set(at);
    await firstRing(rings);
    await sleep(50);
    expect(rings).toHaveLength(1);
    expect(rings[0]).toBeGreaterThanOrEqual(at - ROUNDING_MS);
  });

  it('a time set again replaces the one before: one ring, at the later time', async () => {
    const { alarm, rings } = await readyAlarm();
    alarm.set(performance.now() + 10);
    const later = performance.now() + 60;
    alarm.set(later);
    await firstRing(rings);
    await sleep(50);
    expect(rings).toHaveLength(1);
    expect(rings[0]).toBeGreaterThanOrEqual(later - ROUNDING_MS);
  });

  it('a time cancelled never rings, and the alarm rings again when set after it', async () => {
    const { alarm, rings } = await readyAlarm();
    alarm.set(performance.now() + 10);
    alarm.cancel();
    await sleep(80);
    expect(rings).toHaveLength(0);
    const at = performance.now() + 10;
    alarm.set(at);
    await firstRing(rings);
    expect(rings).toHaveLength(1);
    expect(rings[0]).toBeGreaterThanOrEqual(at - ROUNDING_MS);
  });

  it('rings for a time already past at once, and not after it is closed', async () => {
    const { alarm, rings } = await readyAlarm();
    alarm.set(performance.now() - 5);
    await firstRing(rings);
    expect(rings).toHaveLength(1);
    alarm.set(performance.now() + 10);
    alarm.close();
    expect(alarm.ready).toBe(false);
    await sleep(60);
    expect(rings).toHaveLength(1);
  });
});
