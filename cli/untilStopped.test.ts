import { afterEach, describe, expect, it, vi } from 'vitest';
import { STOP_DEADLINE_MS, WIND_DOWN_MS, stopBounded } from './untilStopped.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('stopBounded: a command told to stop always ends', () => {
  it('gives up on a stop that never finishes: said, and exit 4 at the deadline, not before', async () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const exits: number[] = [];
    void stopBounded(() => new Promise<void>(() => undefined), 0, (l) => lines.push(l), (c) => exits.push(c));
    await vi.advanceTimersByTimeAsync(STOP_DEADLINE_MS - 1);
    expect(exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(exits).toEqual([4]);
    expect(lines.join('\n')).toMatch(/did not finish in 20 s/);
  });

  it('returns the code after a stop that finished; exits with it only if the process is still held after the wind-down', async () => {
    vi.useFakeTimers();
    const exits: number[] = [];
    const lines: string[] = [];
    const code = await stopBounded(() => Promise.resolve(), 0, (l) => lines.push(l), (c) => exits.push(c));
    expect(code).toBe(0);
    await vi.advanceTimersByTimeAsync(STOP_DEADLINE_MS + WIND_DOWN_MS);
    // The deadline was cleared; the wind-down timer (unref'd in a real process) fires here because fake timers run it.
    expect(exits).toEqual([0]);
    expect(lines.join('\n')).toMatch(/something still held the process/);
  });

  it('says a stop that failed and still ends with the code', async () => {
    const lines: string[] = [];
    const code = await stopBounded(() => Promise.reject(new Error('store locked')), 0, (l) => lines.push(l), () => undefined);
    expect(code).toBe(0);
    expect(lines).toContain('stop failed: store locked');
  });
});
