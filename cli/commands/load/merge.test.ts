import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { K6Summary } from '../../../load/k6/K6Summary.js';
import type { LoadReport } from '../../../load/model.js';
import { K6_TEST_DEFINITION, splitIntoSegments, testK6Summary, testRequests } from '../../../test/support/k6Summaries.js';
import { CliError } from '../../CliError.js';
import { MERGE_HELP, mergeCommand, mergeLine } from './merge.js';

// Both ship CommonJS with `exports.default`; under NodeNext the default import is the module object.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;
const ajv = new Ajv({ strict: true, allErrors: true });
addFormats(ajv);
const validateReport = ajv.compile(JSON.parse(readFileSync(new URL('../../../reports/load/load-report.schema.json', import.meta.url), 'utf8')) as object);

const dir = mkdtempSync(join(tmpdir(), 'chainrpc-load-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;

/** Writes the summaries into a fresh folder; returns their paths and a report folder beside them. */
function files(summaries: readonly (K6Summary | string)[]): { paths: string[]; reports: string } {
  const at = join(dir, `case-${++counter}`);
  const paths = summaries.map((s, i) => {
    const path = `${at}-summary-${i + 1}.json`;
    writeFileSync(path, typeof s === 'string' ? s : JSON.stringify(s));
    return path;
  });
  return { paths, reports: `${at}-reports` };
}

const readReport = (reports: string): LoadReport => JSON.parse(readFileSync(join(reports, 'latest', 'report.json'), 'utf8')) as LoadReport;

const requests = testRequests(3000);
const thirds = splitIntoSegments(requests, 3).map((p) => testK6Summary(p));

let out: string;
beforeEach(() => {
  out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('chainrpc load merge', () => {
  it('merges the segments into one run, writes the reports and exits 0 when every threshold is kept', async () => {
    const { paths, reports } = files(thirds);
    expect(await mergeCommand([...paths, '--report-dir', reports])).toBe(0);
    const report = readReport(reports);
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    expect(report).toMatchObject({
      format: 'chainrpc-load/2',
      tool: { name: 'chainrpc' },
      command: `chainrpc load merge ${paths.join(' ')} --report-dir ${reports}`,
      scenario: { name: 'k6-reads', definition: K6_TEST_DEFINITION },
      profile: 'reference',
      sweeps: [],
      verdict: { exitCode: 0, summary: 'PASSED: 4 thresholds kept' },
    });
    expect(report.runs).toHaveLength(1);
    const [run] = report.runs;
    const sum = (f: (s: K6Summary) => number): number => thirds.reduce((n, s) => n + f(s), 0);
    expect(run?.schedule).toMatchObject({ scheduled: sum((s) => s.schedule.started + s.schedule.dropped), sent: sum((s) => s.requests.count), dropped: 0 });
    expect(run?.latency.count).toBe(3000);
    expect(run?.failures.timeouts).toBe(sum((s) => s.failures.timeouts));
    for (const m of run?.methods ?? []) {
      expect(m.calls).toBe(sum((s) => s.methods[m.method]?.calls ?? 0));
      expect(m.ok).toBe(sum((s) => s.methods[m.method]?.ok ?? 0));
      expect(m.unanswered).toBe(sum((s) => s.methods[m.method]?.unanswered ?? 0));
    }
    expect(run?.thresholds.every((t) => t.ok)).toBe(true);
    expect(out).toContain(`load merge: k6-reads against http://127.0.0.1:8545: 3 k6 instances (segments 0:1/3, 1/3:2/3, 2/3:1)\n`);
    expect(out).toMatch(/\nreports: .*case-\d+-reports\/load-[^/\n]+\nHTML report: .*report\.html\nPASSED \(exit 0\): 4 thresholds kept\n$/);
  });

  it('exits 99 when a threshold of the definition breaks on the merged figures', async () => {
    const strict = { ...K6_TEST_DEFINITION, thresholds: ['p99 < 1ms', 'errors < 5%'] };
    const { paths, reports } = files(splitIntoSegments(requests, 2).map((p) => testK6Summary({ ...p, definition: strict })));
    expect(await mergeCommand([...paths, '--report-dir', reports])).toBe(99);
    const report = readReport(reports);
    expect(report.verdict.exitCode).toBe(99);
    expect(report.verdict.summary).toMatch(/^FAILED: thresholds broken: p99 < 1ms \(actual [\d,]+(\.\d+)? ms at http:\/\/127\.0\.0\.1:8545\)$/);
    expect(report.runs[0]?.thresholds.map((t) => [t.name, t.ok])).toEqual([['p99 < 1ms', false], ['errors < 5%', true]]);
  });

  it('exits 1 when the instances did not run together', async () => {
    const apart = splitIntoSegments(requests, 2).map((p, i) => testK6Summary({ ...p, endedAt: i === 0 ? '2026-12-01T10:00:11.000Z' : '2026-12-01T11:00:11.000Z' }));
    const { paths, reports } = files(apart);
    expect(await mergeCommand([...paths, '--report-dir', reports])).toBe(1);
    expect(readReport(reports).verdict.summary).toMatch(/^NOT TRUSTED: figures not to be trusted: http:\/\/127\.0\.0\.1:8545: the k6 instances did not run together/);
  });

  it('compares with a baseline', async () => {
    const first = files(thirds);
    expect(await mergeCommand([...first.paths, '--report-dir', first.reports])).toBe(0);
    const baseline = join(first.reports, 'latest', 'report.json');
    const again = files(thirds);
    expect(await mergeCommand([...again.paths, '--report-dir', again.reports, '--baseline', baseline, '--regression', '5'])).toBe(0);
    const report = readReport(again.reports);
    // Recorded as the file it was, not through `latest` (a link the next run moves).
    expect(report.baseline?.file).toBe(realpathSync(baseline));
    expect(report.baseline?.file).not.toContain('latest');
    expect(report.baseline?.deltas.map((d) => [d.metric.split(' ').pop(), d.change, d.regression])).toEqual([
      ['p50', 0, false],
      ['p99', 0, false],
      ['achievedRate', 0, false],
      ['errors%', 0, false],
    ]);
    // Twice as slow: a regression (99).
    const slow = files(splitIntoSegments(requests.map((r) => ({ ...r, latencyUs: r.latencyUs * 2 })), 3).map((p) => testK6Summary(p)));
    expect(await mergeCommand([...slow.paths, '--report-dir', slow.reports, '--baseline', baseline])).toBe(99);
    expect(readReport(slow.reports).verdict.summary).toMatch(/^FAILED: regressions against the baseline: http:\/\/127\.0\.0\.1:8545 k6-reads p50 /);
  });

  it('exits 2, naming the file and what is wrong, when a file is not a summary or the summaries are not one test', async () => {
    const refusal = async (argv: string[]): Promise<CliError> => {
      const error = await mergeCommand(argv).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(2);
      return error as CliError;
    };
    const bad = files(['{"metrics": {"http_reqs": {"count": 3}}, "root_group": {"name": ""}}']);
    expect((await refusal(bad.paths)).message).toMatch(new RegExp(`^load merge: ${bad.paths[0]} is k6's own end-of-test summary`));
    const text = files(['not json']);
    expect((await refusal(text.paths)).message).toMatch(new RegExp(`^load merge: ${text.paths[0]} is not JSON`));
    const gap = files([thirds[0] as K6Summary, thirds[2] as K6Summary]);
    expect((await refusal(gap.paths)).message).toBe('load merge: segments 0:1/3 and 2/3:1 cover 2/3 of the test; 1/3:2/3 is missing');
    const twice = files([thirds[0] as K6Summary]);
    expect((await refusal([...twice.paths, ...twice.paths])).message).toBe(`load merge: the same file is given twice: ${twice.paths[0]}`);
    expect((await refusal([])).message).toBe('load merge: give the summary files, one per k6 instance (what the handleSummary of a script made by chainrpc load k6 wrote)');
    expect((await refusal(['--bogus'])).message).toBe("load merge: Unknown option '--bogus' (see chainrpc load merge --help)");
    expect((await refusal([...gap.paths, '--regression', '-1'])).message).toMatch(/^load merge: --regression needs a value/);
    const missingBaseline = files(thirds);
    expect((await refusal([...missingBaseline.paths, '--baseline', join(dir, 'none.json')])).message).toMatch(/^load merge: --baseline .*none\.json: /);
  });

  it('says on stderr which thresholds it left out and why, judges the rest, and its help says the same', async () => {
    const definition = { ...K6_TEST_DEFINITION, thresholds: ['p99 < 250ms', 'lag-p99 < 10ms', 'invalid < 1%'] };
    const { paths, reports } = files([testK6Summary({ segment: null, requests, definition })]);
    let err = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err += String(chunk);
      return true;
    });
    expect(await mergeCommand([...paths, '--report-dir', reports])).toBe(0);
    expect(err).toBe(
      'load merge: threshold "lag-p99 < 10ms" not judged: only the Node engine measures it: k6 reports no send lag, no result validation, no inclusion, no node health and no faults\n' +
        'load merge: threshold "invalid < 1%" not judged: only the Node engine measures it: k6 reports no send lag, no result validation, no inclusion, no node health and no faults\n',
    );
    expect(readReport(reports).runs[0]?.thresholds.map((t) => t.name)).toEqual(['p99 < 250ms']);
    // Not "find nothing measured and break": left out, and named.
    expect(MERGE_HELP).not.toMatch(/break/);
    expect(MERGE_HELP).toMatch(/thresholds on what only the Node engine measures \(lag-p99, read-lag-p99, invalid, inclusion,\ntti-, the node's health, faults\) are left out, not judged, and named on stderr with why/);
  });

  it('writes reports that say what k6 measured: latency from each request\'s write, and no service time copied from it', async () => {
    const { paths, reports } = files(thirds);
    expect(await mergeCommand([...paths, '--report-dir', reports])).toBe(0);
    const read = (name: string): string => readFileSync(join(reports, 'latest', name), 'utf8');
    for (const name of ['summary.md', 'report.html']) {
      expect(read(name), name).not.toMatch(/Latency (runs )?from each request(&#39;|')s scheduled send time|no coordinated omission|service time runs from/i);
      expect(read(name), name).toMatch(/Latency is k6(&#39;|')s: from each request(&#39;|')s write to its full answer/);
    }
    const html = read('report.html');
    expect(html).not.toMatch(/Service p50|service [0-9—]/);
    expect(html).toContain('or cut off by k6 at the end of the run');
    const [run] = readReport(reports).runs;
    expect(run?.service.count).toBe(0);
    expect(run?.methods.every((m) => m.service.count === 0)).toBe(true);
  });

  it('documents exactly the options it parses', () => {
    const documented = [...MERGE_HELP.matchAll(/^ +(?:-h, )?--([a-z][a-z-]*)/gm)].map((m) => m[1]);
    expect(new Set(documented)).toEqual(new Set([...Object.keys(mergeLine.options), 'help']));
  });
});
