import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckResult, Level, Status } from '../model.js';
import { Baseline, BaselineError } from './Baseline.js';

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-baseline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(content: unknown): string {
  const path = join(dir, `b${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

const result = (id: string, status: Status, level: Level = 'MUST', node = 'http://n:1'): CheckResult => ({
  id, status, level, node, category: 'transport', title: id, spec: '', scope: 'node', durationMs: 1, evidence: { message: '', exchanges: [] },
});

describe('Baseline', () => {
  it('excuses a listed failure, reports a listed pass as now-passing, and gates again after expiry', () => {
    const b = Baseline.load(write({ expectedFailures: [
      { id: 'transport/empty-batch', reason: 'fix planned' },
      { id: 'state/*', reason: 'no faucet', node: 'http://n:1' },
      { id: 'chain/old', reason: 'old', expires: '2020-01-01' },
    ] }));
    expect(b.mark(result('transport/empty-batch', 'fail'))).toMatchObject({ state: 'expected-fail', reason: 'fix planned' });
    expect(b.mark(result('transport/empty-batch', 'pass'))).toMatchObject({ state: 'now-passing' });
    expect(b.mark(result('state/faucet-limit', 'error'))).toMatchObject({ state: 'expected-fail' });
    expect(b.mark(result('state/faucet-limit', 'fail', 'MUST', 'http://other:2'))).toBeUndefined();
    expect(b.mark(result('chain/old', 'fail'))).toMatchObject({ state: 'expired' });
    expect(b.mark(result('transport/other', 'fail'))).toBeUndefined();
  });

  it('calls a pass "now passing" (remove the entry) only when its entry excuses no failure left on any node', () => {
    const b = Baseline.load(write({ expectedFailures: [{ id: 'transport/no-internal-details', reason: 'LN leaks' }, { id: 'chain/fixed', reason: 'was broken' }] }));
    const run = [
      result('transport/no-internal-details', 'pass', 'SHOULD', 'http://mn:1'),
      result('transport/no-internal-details', 'fail', 'SHOULD', 'http://ln:2'),
      result('chain/fixed', 'pass', 'MUST', 'http://mn:1'),
      result('chain/fixed', 'pass', 'MUST', 'http://ln:2'),
    ];
    for (const r of run) {
      const mark = b.mark(r);
      if (mark !== undefined) r.baseline = mark;
    }
    b.settle(run);
    expect(run.map((r) => `${r.id} ${r.node}: ${r.baseline?.state ?? '-'}`)).toEqual([
      'transport/no-internal-details http://mn:1: -',
      'transport/no-internal-details http://ln:2: expected-fail',
      'chain/fixed http://mn:1: now-passing',
      'chain/fixed http://ln:2: now-passing',
    ]);
  });

  it('refuses malformed files with a message that says what to fix', () => {
    expect(() => Baseline.load(join(dir, 'missing.json'))).toThrow(BaselineError);
    expect(() => Baseline.load(write([]))).toThrow(/expectedFailures/);
    expect(() => Baseline.load(write({ expectedFailures: [{ id: 'x/y' }] }))).toThrow(/needs a "reason"/);
    expect(() => Baseline.load(write({ expectedFailures: [{ id: 'x/y', reason: 'r', expires: 'soon' }] }))).toThrow(/YYYY-MM-DD/);
  });
});
