import type { ChaosReport, LoadRun } from '../../load/model.js';
import { escapeHtml as h } from '../shared/escapeHtml.js';
import { formatCount, formatMicros, formatMs, formatPercent, formatRate, thresholdOutcome } from './formatLoad.js';
import { htmlTable, num, text } from '../shared/htmlTable.js';
import type { Cell } from '../shared/htmlTable.js';
import { errorsOverTimeChart, latencyOverTimeChart, pendingOverTimeChart, throughputOverTimeChart } from './loadCharts.js';
import { callsOf, errorRate, failedOf, requestsOf } from './runSectionHtml.js';
import { chaosMarkers } from './chaosMarkers.js';
import { measuredNothing } from './loadFacts.js';

interface Row {
  label: string;
  value: (run: LoadRun) => number | null;
  format: (value: number) => string;
  /** Which way is better, to mark the best run of the row; none for figures that are not a contest. */
  better?: 'low' | 'high';
}

const latency = (label: string, pick: 'p50' | 'p90' | 'p99' | 'p999' | 'max', of: 'latency' | 'service' = 'latency'): Row => ({
  label,
  value: (r) => (r[of].count === 0 ? null : r[of][pick]),
  format: formatMicros,
  better: 'low',
});

const ROWS: readonly Row[] = [
  { label: 'Target rate (req/s)', value: (r) => r.schedule.targetRate, format: formatRate },
  { label: 'Achieved rate (req/s)', value: (r) => r.schedule.achievedRate, format: formatRate, better: 'high' },
  { label: 'Requests', value: requestsOf, format: formatCount },
  { label: 'Calls ok', value: (r) => callsOf(r) - failedOf(r), format: formatCount },
  { label: 'Calls failed', value: failedOf, format: formatCount },
  { label: 'Failed share', value: errorRate, format: formatPercent, better: 'low' },
  { label: 'Dropped', value: (r) => r.schedule.dropped, format: formatCount, better: 'low' },
  { label: 'Generator lag p99', value: (r) => (r.schedule.lagUs.count === 0 ? null : r.schedule.lagUs.p99), format: formatMicros },
  { label: 'Read lag p99', value: (r) => (r.schedule.readLagUs === undefined || r.schedule.readLagUs.count === 0 ? null : r.schedule.readLagUs.p99), format: formatMicros },
  latency('Latency p50', 'p50'),
  latency('Latency p90', 'p90'),
  latency('Latency p99', 'p99'),
  latency('Latency p99.9', 'p999'),
  latency('Latency max', 'max'),
  latency('Service p50', 'p50', 'service'),
  latency('Service p99', 'p99', 'service'),
  { label: 'Included', value: (r) => r.inclusion?.ratio ?? null, format: formatPercent, better: 'high' },
  { label: 'Time to inclusion p99', value: (r) => (r.inclusion && r.inclusion.timeToInclusionMs.count > 0 ? r.inclusion.timeToInclusionMs.p99 : null), format: formatMs, better: 'low' },
  { label: 'Thresholds kept', value: (r) => r.thresholds.filter((t) => thresholdOutcome(r, t) === 'kept').length, format: formatCount },
];

/**
 * Several runs of one scenario (several --url, interleaved in time; a run with faults loads them at once) side by side: a column per node, the
 * best value of each contested row marked, and the time charts with every run overlaid, the faults (`chaos`)
 * marked on them.
 */
export function comparisonHtml(runs: readonly LoadRun[], chaos?: ChaosReport): string {
  const head: Cell[] = [text('Figure'), ...runs.map((r, i) => ({ html: `<a href="#run-${i + 1}">${h(r.url)}</a>`, num: true }))];
  const rows = ROWS.filter((row) => runs.some((r) => row.value(r) !== null)).map((row): Cell[] => {
    const values = runs.map((r) => row.value(r));
    const known = values.filter((v): v is number => v !== null);
    // Judged as displayed: figures that read the same (20.4 ms | 20.4 ms) have no best, whatever their raw values.
    const best = row.better === undefined || known.length < 2 || new Set(known.map(row.format)).size === 1 ? undefined : row.format(row.better === 'low' ? Math.min(...known) : Math.max(...known));
    return [text(row.label), ...values.map((v) => (v === null ? num('—', 'note') : num(row.format(v), row.format(v) === best ? 'best' : '')))];
  });
  rows.push([text('Valid'), ...runs.map((r) => (r.valid ? num('yes') : num('no', 'bad')))]);
  const withTimeline = runs.filter((r) => r.timeline.length > 0 && !measuredNothing(r));
  // The runs overlaid each count from their own start of measurement, up to a few hundred milliseconds apart
  // when they ran together (as a run with faults does, its workers starting one by one): the faults are
  // placed on the first one's clock, and each run's own charts of the node's health place them exactly.
  const first = withTimeline[0];
  const markers = first === undefined ? [] : chaosMarkers(chaos, first).measured;
  const charts =
    withTimeline.length === 0
      ? `<p class="note">${runs.some((r) => r.timeline.length > 0) ? 'Nothing was measured (the runs ended before their measured window opened)' : 'No tick was recorded'}: there is nothing to draw over time.</p>`
      : `<div class="charts">${[
          latencyOverTimeChart('compare-latency', withTimeline, markers),
          throughputOverTimeChart('compare-throughput', withTimeline, markers),
          errorsOverTimeChart('compare-errors', withTimeline, markers),
          ...(withTimeline.some((r) => r.timeline.some((p) => p.pending !== undefined)) ? [pendingOverTimeChart('compare-pending', withTimeline, markers)] : []),
        ].join('')}</div>`;
  return [
    '<section class="comparison" id="comparison" data-testid="comparison">',
    `<h2>${runs.length} nodes compared</h2>`,
    `<p class="note">The same scenario against each node, ${chaos === undefined ? 'interleaved in time' : 'all loaded at once, each with its share of the rate, while the faults ran'}. The best value of a row is in bold.</p>`,
    htmlTable('comparison-table', head, rows),
    charts,
    '</section>',
  ].join('\n');
}
