import { describe, expect, it } from 'vitest';
import { LOAD_FIXTURE_KINDS, LOAD_NODE_A, LOAD_NODE_B, loadReportFixture } from '../../test/support/loadReportFixture.js';
import { renderLoadMarkdown } from './renderLoadMarkdown.js';

const tableRow = (md: string, startsWith: string): string[] => {
  const line = md.split('\n').find((l) => l.startsWith(startsWith));
  if (line === undefined) throw new Error(`no row starting with ${startsWith}`);
  return line.split(' | ').map((c) => c.replace(/^\| /, '').replace(/ \|$/, ''));
};

describe('renderLoadMarkdown', () => {
  it.each([
    ['plain', '## ✅ chainrpc load: PASSED (exit 0): 3 thresholds kept'],
    ['compared', `## ❌ chainrpc load: FAILED (exit 99): thresholds broken: p99 \\< 50ms (actual 119 ms at ${LOAD_NODE_B})`],
    ['empty', '## ⚠️ chainrpc load: NOT TRUSTED (exit 1): http://127.0.0.1:9 stopped answering 0.0 s into the run: connect ECONNREFUSED 127.0.0.1:9; figures not to be trusted: http://127.0.0.1:9: no request was answered: the node could not be reached'],
  ] as const)('leads with the verdict (%s)', (kind, first) => {
    expect(renderLoadMarkdown(loadReportFixture(kind)).split('\n')[0]).toBe(first);
  });

  it('shows each node in a row with its rate, failures, drops and percentiles in ms', () => {
    const report = loadReportFixture('compared');
    const md = renderLoadMarkdown(report);
    const b = report.runs[1];
    const row = tableRow(md, `| \`${LOAD_NODE_B}\``);
    expect(row).toEqual([
      `\`${LOAD_NODE_B}\``,
      '2,000 / 2,000',
      '120,000',
      expect.stringMatching(/^\d+ \(0\.0\d\d%\)$/),
      '0',
      `${((b?.latency.p50 ?? 0) / 1000).toFixed(2)} ms`,
      expect.stringMatching(/ ms$/),
      `${Math.round((b?.latency.p99 ?? 0) / 1000)} ms`,
      expect.stringMatching(/ ms$/),
      expect.stringMatching(/ ms$/),
      'yes',
    ]);
    expect(tableRow(md, `| \`${LOAD_NODE_B}\` | \`p99 < 50ms\``)).toEqual([`\`${LOAD_NODE_B}\``, '`p99 < 50ms`', `${Math.round((b?.latency.p99 ?? 0) / 1000)} ms`, '50.0 ms', '❌ **broken**']);
  });

  it('lists the baseline\'s regressions only, with the change and what was allowed', () => {
    const md = renderLoadMarkdown(loadReportFixture('baseline'));
    expect(md).toContain('**2 regression(s)** in 4 figure(s)');
    expect(tableRow(md, `| \`${LOAD_NODE_A} reads-mixed p99\``)).toEqual([`\`${LOAD_NODE_A} reads-mixed p99\``, '5.10 ms', expect.stringMatching(/ ms$/), expect.stringMatching(/^\*\*\+\d+\.\d%\*\*$/), '±15.0%']);
    expect(md).not.toContain('achievedRate`');
  });

  it('gives each sweep its knee and a row per step in rate order', () => {
    const md = renderLoadMarkdown(loadReportFixture('sweep'));
    expect(md).toContain(`### Sweep on \`${LOAD_NODE_A}\`: knee at **2,750 req/s**`);
    const rates = md.split('\n').filter((l) => /^\| [\d,]+( \(knee\))? \|/.test(l)).map((l) => l.split(' | ')[0]);
    expect(rates).toEqual(['| 500', '| 1,000', '| 2,000', '| 2,500', '| 2,750 (knee)', '| 3,000', '| 4,000']);
  });

  it('says why a run is invalid and how it stopped, with the user\'s and node\'s text unable to become markup', () => {
    const md = renderLoadMarkdown(loadReportFixture('interrupted'));
    expect(md).toContain('- Run invalid: the generator fell behind its schedule');
    expect(md).toContain('- Run interrupted after 12.4 s of measurement (SIGINT: stopped by the user \\</script\\>\\<script\\>');
    expect(md).toContain('threshold(s) not judged: the run was interrupted');
    expect(md).not.toMatch(/✅ kept|❌ \*\*broken\*\*|threshold\(s\) kept/);
    expect(md).toContain('not judged (interrupted)');
    // Every "<" the user or the node wrote is escaped.
    expect(md).not.toMatch(/(?<!\\)<(script|img|\/script)/);
    expect(md).not.toContain('\u001b');
    expect(md).toContain('`http://127.0.0.1:8545` (interrupted)');
  });

  it.each(LOAD_FIXTURE_KINDS)('stays short enough for a step summary (%s)', (kind) => {
    const md = renderLoadMarkdown(loadReportFixture(kind));
    expect(md.split('\n').length).toBeLessThan(60);
    expect(md.endsWith('\n')).toBe(true);
  });
});
