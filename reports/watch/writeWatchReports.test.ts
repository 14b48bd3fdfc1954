import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderWatchHtml, renderWatchMarkdown, watchHeadline } from './writeWatchReports.js';
import type { WatchReport } from './writeWatchReports.js';

// Two nodes watched for 15 s, as the tester's run wrote them (the series cut short): a falling RSS trend
// of −3,887.1 MiB/h and a head-lag trend of −1,632 ms/h.
const report = JSON.parse(readFileSync(new URL('./watchReport.fixture.json', import.meta.url), 'utf8')) as WatchReport;

describe('the watch reports write figures as the load reports do', () => {
  it('summary.md: no stray backslash in a version or a figure mid-line', () => {
    const md = renderWatchMarkdown(report);
    expect(md).toContain('· chainrpc 0.1.0');
    expect(md).toContain('| 0.100 ms / 0.100 ms |');
    expect(md).toContain('| 1.60 ms / 51.4 ms |');
    expect(md).toContain('| 84.8 MiB |');
    // A backslash before a dot or a digit escapes nothing Markdown would read: none is written.
    expect(md).not.toMatch(/\\[.\d]/);
  });

  it('report.html: signed figures with a minus sign and thousands separators, in one locale', () => {
    // The health tables (the charts' legends are reports/load/loadCharts.ts's).
    const tables = renderWatchHtml(report).match(/<table class="data" data-testid="health">.*?<\/table>/gs)?.join('\n') ?? '';
    expect(tables).toContain('<td class="num">−3,887.1 MiB/h</td>');
    expect(tables).toContain('<td class="num">−1,632 ms/h</td>');
    expect(tables).not.toMatch(/-\d/); // no ASCII hyphen as a minus sign
    expect(tables).not.toMatch(/(?<!pid \d*)\d{4}/); // no ungrouped figure of four digits (a pid is a name)
    expect(tables).toContain('95% interval −4,921.7 to −2,852.5 MiB/h; its last half, from 8,258 ms: −13,443.0 to −8,162.5 MiB/h');
  });

  it('the headline writes the worst lag as the table does', () => {
    expect(watchHeadline(report)).toContain('head lag p99 at most 102 ms');
  });
});

describe('a node whose head never answered', () => {
  // The fixture's second node as one whose every head read failed (a wrong URL, a node not started).
  const silent = (r: WatchReport, i: number): WatchReport => ({
    ...r,
    nodes: r.nodes.map((n, j) => {
      const head = n.health.head;
      if (j !== i || head === undefined) return n;
      return { ...n, health: { ...n.health, head: { ...head, samples: 0, failed: 300, lastFailure: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1', lagMs: null, stalls: [], regressions: [], regressionCount: 0, series: [], worst: [], lagTrend: null } } };
    }),
  });

  it('is named in the headline with why its reads failed; with no node answering, nothing else is said', () => {
    const one = silent(report, 1);
    const url = one.nodes[1]?.url ?? '';
    expect(watchHeadline(one)).toContain(`${url} never answered (300 head reads failed: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1); `);
    expect(watchHeadline(one)).toContain('gone backwards');
    const none = silent(silent(report, 0), 1);
    expect(watchHeadline(none)).not.toMatch(/gone backwards|head lag/);
  });

  it('its rows say nothing was measured (no 0 for stalls or heights gone backwards it was never seen to keep)', () => {
    const html = renderWatchHtml(silent(report, 1));
    const section = html.slice(html.indexOf('id="node-2"'));
    expect(section).toContain('not measured: none of the head reads was answered (300 failed)');
    expect(section).not.toContain('it never served a height lower');
    expect(section).toContain('Heights gone backwards</th><td class="num">—</td>');
  });
});
