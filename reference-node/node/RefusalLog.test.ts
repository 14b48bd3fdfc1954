import { describe, expect, it } from 'vitest';
import { RefusalLog } from './RefusalLog.js';

/** A RefusalLog of 3 lines per 10 s on a clock the test moves. */
function setup(): { lines: string[]; log: RefusalLog; at: (ms: number) => void } {
  const lines: string[] = [];
  let t = 1_000_000;
  const log = new RefusalLog((line) => lines.push(line), 3, 10_000, () => t);
  return { lines, log, at: (ms) => (t = 1_000_000 + ms) };
}

const SUMMARY = /^p2p: (\d+) more refused peer messages not logged \(at most 3 lines per 10 s\)$/;

describe('RefusalLog', () => {
  it('writes at most `burst` lines per window and counts the rest', () => {
    const { lines, log } = setup();
    for (let i = 1; i <= 10; i++) log.write(`refused ${i}`);
    expect(lines).toEqual(['refused 1', 'refused 2', 'refused 3']);
  });

  it('reports the count in one line when the next window starts, then writes again', () => {
    const { lines, log, at } = setup();
    for (let i = 1; i <= 10; i++) log.write(`refused ${i}`);
    at(9_999);
    log.write('still the first window');
    expect(lines).toHaveLength(3);
    at(10_000);
    log.write('second window');
    expect(lines.slice(3)).toEqual(['p2p: 8 more refused peer messages not logged (at most 3 lines per 10 s)', 'second window']);
    expect(lines[3]).toMatch(SUMMARY);
  });

  it('a new window has a full burst again', () => {
    const { lines, log, at } = setup();
    for (let i = 1; i <= 4; i++) log.write(`a${i}`);
    at(20_000);
    for (let i = 1; i <= 4; i++) log.write(`b${i}`);
    expect(lines).toEqual(['a1', 'a2', 'a3', 'p2p: 1 more refused peer messages not logged (at most 3 lines per 10 s)', 'b1', 'b2', 'b3']);
  });

  it('reports the count on flush, once', () => {
    const { lines, log } = setup();
    for (let i = 1; i <= 5; i++) log.write(`refused ${i}`);
    log.flush();
    expect(lines.at(-1)).toBe('p2p: 2 more refused peer messages not logged (at most 3 lines per 10 s)');
    log.flush();
    expect(lines).toHaveLength(4);
  });

  it('reports nothing when nothing was suppressed', () => {
    const { lines, log, at } = setup();
    log.write('one');
    log.write('two');
    log.write('three');
    log.flush();
    at(10_000);
    log.write('four');
    log.flush();
    expect(lines).toEqual(['one', 'two', 'three', 'four']);
    expect(lines.some((l) => SUMMARY.test(l))).toBe(false);
  });

  it('names what it counts: the node\'s own pauses, a few lines a minute', () => {
    const lines: string[] = [];
    let t = 0;
    const log = new RefusalLog((line) => lines.push(line), 2, 60_000, () => t, '{n} more pauses of this node');
    for (let i = 1; i <= 7; i++) log.write(`paused ${i}`);
    t = 60_000;
    log.tick();
    expect(lines).toEqual(['paused 1', 'paused 2', '5 more pauses of this node not logged (at most 2 lines per 60 s)']);
  });
});
