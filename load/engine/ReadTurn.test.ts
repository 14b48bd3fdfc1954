import { describe, expect, it } from 'vitest';
import { ReadTurn } from './ReadTurn.js';

const immediate = (): Promise<void> => new Promise((r) => setImmediate(r));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const spin = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('ReadTurn', () => {
  it('delivers at once when no turn is open and nothing waits', () => {
    const turn = new ReadTurn();
    const got: number[] = [];
    turn.defer({ deliver: () => got.push(1) });
    expect(got).toEqual([1]);
  });

  it("holds what a turn's reads completed until its check, then delivers in order, a few per poll", async () => {
    const turn = new ReadTurn();
    const got: number[] = [];
    turn.read();
    for (let i = 0; i < 20; i++) turn.defer({ deliver: () => got.push(i) });
    // A failure seen meanwhile (no read) waits behind them.
    turn.defer({ deliver: () => got.push(99) });
    expect(got).toEqual([]);
    await immediate();
    expect(got).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (let i = 0; i < 4; i++) await immediate();
    expect(got).toEqual([...Array.from({ length: 20 }, (_, i) => i), 99]);
    // Drained: the next one goes at once again.
    turn.defer({ deliver: () => got.push(100) });
    expect(got.at(-1)).toBe(100);
  });

  it("a turn's later reads lag its first by the reads between; an answer never lags past its request's write", () => {
    const turn = new ReadTurn();
    const first = turn.read();
    spin(2);
    const later = turn.read();
    expect(turn.lagOf(first, undefined)).toBe(0);
    expect(turn.lagOf(later, undefined) - turn.lagOf(first, undefined)).toBeCloseTo(later - first, 6);
    expect(turn.lagOf(later, later - 0.5)).toBeLessThanOrEqual(0.5);
  });

  it('an answer that woke a waiting loop did not wait; one read after the engine worked without waiting may have waited that long', async () => {
    const turn = new ReadTurn();
    turn.read();
    await immediate();
    await sleep(20); // the loop waits in the kernel
    const woke = turn.read();
    expect(turn.lagOf(woke, undefined)).toBe(0);
    await immediate();
    await sleep(20);
    turn.working();
    spin(5); // the engine works; the loop does not look for readable connections meanwhile
    const late = turn.read();
    expect(turn.lagOf(late, undefined)).toBeGreaterThanOrEqual(5);
    await immediate();
  });
});
