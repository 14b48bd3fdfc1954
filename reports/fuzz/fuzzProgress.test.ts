/**
 * The live progress of `chainrpc fuzz`: on a terminal one status line rewritten in place with each finding on
 * a line of its own above it; in CI plain lines now and then, at each change of a node's state, and one per
 * finding; never a control character from a node.
 */
import { describe, expect, it } from 'vitest';
import { FUZZ_NODE_A, FUZZ_NODE_B, fuzzRunFixture } from '../../test/support/fuzzRunFixture.js';
import type { Finding } from '../../fuzz/model.js';
import { FuzzProgressLine, findingLine, fuzzStatusLine } from './fuzzProgress.js';
import type { FuzzProgressSnapshot } from './fuzzProgress.js';

/** A stand-in for process.stderr: what was written, and whether it is a terminal. */
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

const snap = (over: Partial<FuzzProgressSnapshot> = {}): FuzzProgressSnapshot => ({
  atMs: 12_000,
  cases: 2140,
  casesPerSecond: 180,
  findings: 3,
  liveness: 412,
  targets: [{ url: FUZZ_NODE_A, state: 'answering' }],
  ...over,
});

const findings = fuzzRunFixture('findings').findings;
const finding = (id: string): Finding => {
  const f = findings.find((x) => x.id === id);
  if (!f) throw new Error(`no ${id}`);
  return f;
};

describe('fuzzStatusLine and findingLine', () => {
  it('shows time, cases, cases/s, findings, liveness checks and each node\'s state', () => {
    expect(fuzzStatusLine(snap())).toBe(`12.0 s  2,140 cases  180 cases/s  3 findings  412 liveness checks  ${FUZZ_NODE_A}: answering`);
    expect(fuzzStatusLine(snap({ cases: 1, findings: 1, liveness: 1, targets: [{ url: FUZZ_NODE_A, state: 'stopped' }, { url: FUZZ_NODE_B, state: 'answering' }] }))).toBe(
      `12.0 s  1 case  180 cases/s  1 finding  1 liveness check  ${FUZZ_NODE_A}: stopped, ${FUZZ_NODE_B}: answering`,
    );
  });

  it('says a finding in one line: id, oracle, method, node, message and rule, flaky marked', () => {
    expect(findingLine(finding('F1'))).toBe(`F1  error-expected  chain_getBlockByHeight  ${FUZZ_NODE_A}: answered an invalid height (2^64, above the u64 maximum) with a result (found by invalid-params/maximum, shrunk)`);
    expect(findingLine(finding('F6'))).toMatch(/^F6 {2}slow {2}chain_getBlockByHeight {2}.* \(valid\/chain_getBlockByHeight\) {2}\[flaky\]$/);
  });

  it('shows control characters from a node as pictures, never as terminal escapes', () => {
    const f = { ...finding('F1'), message: 'bad\u001b[2J\nanswer' };
    expect(findingLine(f)).toContain('bad␛[2J answer');
    expect(fuzzStatusLine(snap({ targets: [{ url: 'http://x/\u001b[2J', state: 'answering' }] }))).toContain('http://x/␛[2J: answering');
  });
});

describe('FuzzProgressLine on a terminal', () => {
  it('rewrites one status line in place, keeps each finding on a line above it, and ends with a newline', () => {
    const out = stream(true, 200);
    const progress = new FuzzProgressLine(out);
    progress.update(snap({ atMs: 1000, cases: 180 }));
    progress.update(snap({ atMs: 2000, cases: 360, findings: 0 }));
    progress.finding(finding('F1'));
    progress.update(snap({ atMs: 3000, cases: 540, findings: 1 }));
    progress.finding(finding('F2'));
    progress.done();
    expect(screen(out.text)).toEqual([`finding ${findingLine(finding('F1'))}`, `finding ${findingLine(finding('F2'))}`, fuzzStatusLine(snap({ atMs: 3000, cases: 540, findings: 1 })), '']);
    expect(out.text.endsWith('\n')).toBe(true);
  });

  it('cuts the status line to the terminal\'s width, so it never wraps', () => {
    const out = stream(true, 40);
    new FuzzProgressLine({ stream: out }).update(snap());
    const [line] = screen(out.text);
    expect(line).toHaveLength(39);
    expect(line?.endsWith('…')).toBe(true);
  });
});

describe('FuzzProgressLine in CI (not a terminal)', () => {
  it('prints a plain line every 10 s, at once when a node\'s state changes, one per finding, then the final state', () => {
    const out = stream(false);
    const progress = new FuzzProgressLine(out);
    for (let t = 1000; t <= 25_000; t += 1000) {
      const stopped = t >= 13_000;
      progress.update(snap({ atMs: t, targets: [{ url: FUZZ_NODE_A, state: stopped ? 'stopped' : 'answering' }] }));
      if (t === 12_000) progress.finding(finding('F2'));
    }
    progress.done();
    const lines = out.text.trimEnd().split('\n');
    expect(lines.map((l) => l.split('  ')[0])).toEqual(['1.0 s', '11.0 s', `finding F2`, '13.0 s', '23.0 s', '25.0 s']);
    expect(lines[3]).toContain(`${FUZZ_NODE_A}: stopped`);
    expect(out.text.includes('\r') || out.text.includes('\u001b')).toBe(false);
  });

  it('takes its interval from the options, and does not repeat a final state already printed', () => {
    const out = stream(false);
    const progress = new FuzzProgressLine({ stream: out, everyMs: 5000 });
    for (let t = 0; t <= 10_000; t += 1000) progress.update(snap({ atMs: t }));
    progress.done();
    expect(out.text.trimEnd().split('\n').map((l) => l.split('  ')[0])).toEqual(['0.0 s', '5.0 s', '10.0 s']);
  });
});
