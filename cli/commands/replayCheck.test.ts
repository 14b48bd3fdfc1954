import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newestConformanceReport } from './replayCheck.js';

let root = '';
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'chainrpc-replay-find-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A run folder holding a report.json of `format`. */
function run(name: string, format: string): string {
  mkdirSync(join(root, name));
  writeFileSync(join(root, name, 'report.json'), JSON.stringify({ format }));
  return join(root, name, 'report.json');
}

describe('newestConformanceReport (what chainrpc replay reads by default)', () => {
  it('reads latest-conformance, whatever kind of run latest points at', () => {
    const test = run('2026-11-23T12-00-00-000Z', 'chainrpc-report/3');
    run('load-2026-11-23T12-05-00-000Z', 'chainrpc-load/2');
    symlinkSync('load-2026-11-23T12-05-00-000Z', join(root, 'latest'));
    symlinkSync('2026-11-23T12-00-00-000Z', join(root, 'latest-conformance'));
    expect(newestConformanceReport(root)).toBe(join(root, 'latest-conformance', 'report.json'));
    expect(test).toBe(join(root, '2026-11-23T12-00-00-000Z', 'report.json'));
  });

  it('reads a report folder written before latest-conformance: latest when it is a test run, else the newest test run folder', () => {
    run('2026-11-23T11-00-00-000Z', 'chainrpc-report/3');
    const newest = run('2026-11-23T12-00-00-000Z', 'chainrpc-report/3');
    run('load-2026-11-23T12-05-00-000Z', 'chainrpc-load/2');
    symlinkSync('2026-11-23T12-00-00-000Z', join(root, 'latest'));
    expect(newestConformanceReport(root)).toBe(join(root, 'latest', 'report.json'));
    rmSync(join(root, 'latest'));
    symlinkSync('load-2026-11-23T12-05-00-000Z', join(root, 'latest'));
    expect(newestConformanceReport(root)).toBe(newest);
  });

  it('finds none in a folder without a test run, or no folder at all', () => {
    run('load-2026-11-23T12-05-00-000Z', 'chainrpc-load/2');
    expect(newestConformanceReport(root)).toBeUndefined();
    expect(newestConformanceReport(join(root, 'missing'))).toBeUndefined();
  });
});
