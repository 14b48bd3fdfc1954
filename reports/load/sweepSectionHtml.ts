import type { SweepResult } from '../../load/model.js';
import { escapeHtml as h } from '../shared/escapeHtml.js';
import { formatCount, formatPercent, formatRate, stepOutcome } from './formatLoad.js';
import { htmlTable, num, text } from '../shared/htmlTable.js';
import { sweepErrorsChart, sweepLatencyChart, sweepThroughputChart } from './loadCharts.js';
import { errorRate, us } from './runSectionHtml.js';

/**
 * A sweep: the knee first (the highest rate where the SLO held), latency, throughput and errors against
 * the target rate with the knee marked, and a row per step in rate order with why the SLO broke there.
 */
export function sweepSectionHtml(sweep: SweepResult, index: number): string {
  const id = `sweep-${index}`;
  const steps = [...sweep.steps].sort((a, b) => a.rate - b.rate);
  const knee =
    sweep.knee === null
      ? '<p class="knee bad" data-testid="knee">No knee: the SLO held at no rate tried.</p>'
      : sweep.steps.every((s) => s.sloHeld)
        ? `<p class="knee" data-testid="knee">Knee: above <strong>${h(formatRate(sweep.knee))} req/s</strong>: the SLO held at every rate tried, the highest included</p>`
        : `<p class="knee" data-testid="knee">Knee: <strong>${h(formatRate(sweep.knee))} req/s</strong>, the highest rate where the SLO held</p>`;
  const search = sweep.search === 'given' ? 'rates given by the user' : `rates searched: a ramp, then a bisection (in the order run: ${sweep.steps.map((s) => formatRate(s.rate)).join(', ')})`;
  const table = htmlTable(
    `${id}-steps`,
    [text('Target (req/s)'), num('Achieved'), num('Dropped'), num('p50'), num('p99'), num('Failed calls'), text('SLO'), text('Why not')],
    steps.map((s) => [
      { html: `${h(formatRate(s.rate))}${s.rate === sweep.knee ? ' <span class="badge ok">knee</span>' : ''}`, num: true },
      num(formatRate(s.run.schedule.achievedRate)),
      num(formatCount(s.run.schedule.dropped), s.run.schedule.dropped > 0 ? 'bad' : ''),
      num(us(s.run.latency, 'p50')),
      num(us(s.run.latency, 'p99')),
      num(formatPercent(errorRate(s.run))),
      { html: `<span class="${s.sloHeld ? 'ok' : s.generatorLimited ? 'warn' : 'bad'}">${stepOutcome(s)}</span>` },
      text(s.reasons.join('; '), 'note'),
    ]),
  );
  return [
    `<section class="sweep" id="${id}" data-testid="sweep">`,
    `<h2>Sweep ${index}: <span class="url">${h(sweep.url)}</span></h2>`,
    `<p class="note">${h(sweep.scenario)} · ${h(search)} · ${steps.length} step(s)</p>`,
    knee,
    sweep.stopped === undefined ? '' : `<div class="callout warn" data-testid="sweep-stopped"><strong>The search ended early:</strong> ${h(sweep.stopped)}.</div>`,
    steps.length === 0
      ? '<p class="note">No step ran.</p>'
      : `<div class="charts">${sweepLatencyChart(`${id}-latency`, sweep)}${sweepThroughputChart(`${id}-throughput`, sweep)}${sweepErrorsChart(`${id}-errors`, sweep)}</div>`,
    `<h3>Steps</h3>${table}`,
    '</section>',
  ].join('\n');
}
