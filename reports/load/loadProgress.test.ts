import { describe, expect, it } from 'vitest';
import type { LoadProgress } from '../../load/model.js';
import { loadProgress, progressLine } from './loadProgress.js';

/** A stand-in for process.stdout: what was written, and whether it is a terminal. */
function stream(isTTY: boolean, columns?: number): { isTTY: boolean; columns?: number; text: string; write(s: string): boolean } {
  return {
    isTTY,
    ...(columns === undefined ? {} : { columns }),
    text: '',
    write(s: string) {
      this.text += s;
      return true;
    },
  };
}

const snap = (over: Partial<LoadProgress> = {}): LoadProgress => ({
  url: 'http://127.0.0.1:8545',
  phase: 'measure',
  elapsedMs: 12_000,
  durationMs: 60_000,
  achievedRate: 1998,
  targetRate: 2000,
  p50Us: 3120,
  p99Us: 10_240,
  okCalls: 23_901,
  failedCalls: 12,
  dropped: 0,
  inFlight: 4,
  ...over,
});

/** What a terminal shows after the text: carriage return, erase line and cursor-up applied, as a screen of lines. */
function screen(text: string): string[] {
  const lines: string[] = [''];
  let row = 0;
  // eslint-disable-next-line no-control-regex -- terminal escapes are what this reads
  for (const token of text.match(/\x1b\[\d*[AK]|\r|\n|[^\x1b\r\n]+/g) ?? []) {
    if (token === '\r') continue;
    if (token === '\n') {
      row++;
      lines[row] ??= '';
    } else if (token.endsWith('K')) lines[row] = '';
    else if (token.endsWith('A')) row -= Number(token.slice(2, -1) || '1');
    else lines[row] = (lines[row] ?? '') + token;
  }
  return lines;
}

describe('progressLine', () => {
  it('shows time, achieved against target, p50 and p99 in ms, ok, failed, dropped and in flight', () => {
    expect(progressLine(snap(), false)).toBe('12.0 s / 60.0 s  1,998/2,000 req/s  p50 3.12 ms  p99 10.2 ms  ok 23,901  failed 12  dropped 0  in flight 4');
  });

  it('shows the warm-up counting down, a closed model\'s rate, and inclusion for signed-transaction load', () => {
    const line = progressLine(snap({ phase: 'warmup', elapsedMs: -4000, targetRate: null, achievedRate: 812, included: 1200, pending: 30 }), true);
    expect(line).toMatch(/^http:\/\/127\.0\.0\.1:8545 {2}warm-up, 4\.0 s to go {2}812 req\/s {2}/);
    expect(line).toMatch(/ {2}included 1,200 {2}pending 30$/);
  });

  it('shows control characters in a URL as pictures, never as terminal escapes', () => {
    expect(progressLine(snap({ url: 'http://x/\u001b[2J' }), true)).toMatch(/^http:\/\/x\/␛\[2J {2}/);
  });
});

describe('loadProgress on a terminal', () => {
  it('rewrites one line in place, and done() leaves the last one and ends with a newline', () => {
    const out = stream(true, 200);
    const progress = loadProgress({ stream: out });
    progress.update(snap({ elapsedMs: 1000 }));
    progress.update(snap({ elapsedMs: 2000, failedCalls: 3 }));
    progress.done();
    expect(screen(out.text)).toEqual([progressLine(snap({ elapsedMs: 2000, failedCalls: 3 }), false), '']);
    expect(out.text.endsWith('\n')).toBe(true);
  });

  it('keeps a line per node when several run at once, each rewritten in place', () => {
    const out = stream(true, 200);
    const progress = loadProgress({ stream: out });
    const b = 'http://10.0.0.7:8545';
    progress.update(snap({ elapsedMs: 1000 }));
    progress.update(snap({ url: b, elapsedMs: 1000 }));
    progress.update(snap({ elapsedMs: 2000 }));
    progress.update(snap({ url: b, elapsedMs: 2000, p99Us: 99_000 }));
    progress.done();
    expect(screen(out.text)).toEqual([progressLine(snap({ elapsedMs: 2000 }), true), progressLine(snap({ url: b, elapsedMs: 2000, p99Us: 99_000 }), true), '']);
  });

  it('cuts a line to the terminal\'s width, so it never wraps', () => {
    const out = stream(true, 40);
    const progress = loadProgress({ stream: out });
    progress.update(snap());
    const [line] = screen(out.text);
    expect(line).toHaveLength(39);
    expect(line?.endsWith('…')).toBe(true);
  });
});

describe('loadProgress in CI (not a terminal)', () => {
  it('prints a plain line at each phase\'s start and every 10 s of the run, then the final state', () => {
    const out = stream(false);
    const progress = loadProgress({ stream: out });
    for (let t = -3000; t <= 0; t += 1000) progress.update(snap({ phase: t < 0 ? 'warmup' : 'measure', elapsedMs: t }));
    for (let t = 1000; t <= 25_000; t += 1000) progress.update(snap({ elapsedMs: t }));
    progress.done();
    const lines = out.text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => l.split('  ')[1])).toEqual(['warm-up, 3.0 s to go', '0.0 s / 60.0 s', '10.0 s / 60.0 s', '20.0 s / 60.0 s', '25.0 s / 60.0 s']);
    // Plain text: no carriage return, no escape sequence.
    expect(out.text.includes('\r') || out.text.includes('\u001b')).toBe(false);
  });

  it('takes its interval from the options, and does not repeat a final state already printed', () => {
    const out = stream(false);
    const progress = loadProgress({ stream: out, everyMs: 5000 });
    for (let t = 0; t <= 10_000; t += 1000) progress.update(snap({ elapsedMs: t }));
    progress.done();
    expect(out.text.trimEnd().split('\n').map((l) => l.split('  ')[1])).toEqual(['0.0 s / 60.0 s', '5.0 s / 60.0 s', '10.0 s / 60.0 s']);
  });
});
