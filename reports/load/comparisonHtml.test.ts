// The comparison table marks a best node only where the figures it shows differ: an outside tester saw
// "20.4 ms | 20.4 ms" with one of them in bold (the raw values differed by microseconds).
import { describe, expect, it } from 'vitest';
import type { LoadRun } from '../../load/model.js';
import { loadReportFixture } from '../../test/support/loadReportFixture.js';
import { comparisonHtml } from './comparisonHtml.js';

/** The cells of a row of the table, by its label. */
const row = (html: string, label: string): string => new RegExp(`<th>${label}</th>(.*?)</tr>`).exec(html)?.[1] ?? '';

describe('comparisonHtml', () => {
  it('bolds no node among figures that read the same, and still the best where they differ', () => {
    const [a, b] = loadReportFixture('compared').runs as [LoadRun, LoadRun];
    const html = comparisonHtml([
      { ...a, latency: { ...a.latency, p50: 20_410, p99: 30_000 } },
      { ...b, latency: { ...b.latency, p50: 20_430, p99: 45_000 } },
    ]);
    expect(row(html, 'Latency p50')).toBe('<td class="num">20.4 ms</td><td class="num">20.4 ms</td>');
    expect(row(html, 'Latency p99')).toBe('<td class="num best">30.0 ms</td><td class="num">45.0 ms</td>');
  });
});
