// Figures of a load report as people read them, the same in every report and on the console. Numbers are
// written in one locale (en-US: "1,234.5") so reports do not change with the machine that wrote them. The
// figures' own formats live with the model in load/figures.ts (the load verdict, which load/ writes, reads
// like the reports); they are re-exported here with the reports' own.
import { formatMsNumber, grouped } from '../../load/figures.js';
import type { BaselineDelta, SweepStep } from '../../load/model.js';
import { inPoints } from '../../load/compareBaseline.js';

export { formatCount, formatMetricValue, formatMs, formatMsNumber, formatPercent, formatRate, thresholdOutcome } from '../../load/figures.js';
// Every chart's tick format, beside the charts it labels (reports/shared/svgChart.ts).

/** Microseconds (the model's unit for latencies) shown in milliseconds: 412 µs reads "0.412 ms". */
export const formatMicros = (us: number): string => `${formatMsNumber(us / 1000)} ms`;

/** A signed relative change: +35.2%, −3.0% (a real minus sign, so it lines up in tables). */
export function formatChange(change: number): string {
  if (!Number.isFinite(change)) return '?';
  const text = grouped(Math.abs(change * 100), 1);
  return `${change > 0 ? '+' : change < 0 ? '−' : '±'}${text}%`;
}

/** A signed change in percentage points: "−10.0 points" (a share compared by difference, not by ratio). */
export function formatPoints(points: number): string {
  if (!Number.isFinite(points)) return '?';
  return `${points > 0 ? '+' : points < 0 ? '−' : '±'}${grouped(Math.abs(points), 1)} points`;
}

/** A baseline delta's change as every report writes it: relative ("+87.1%"), or in points for a share ("−10.0 points"). */
export const formatDeltaChange = (d: Pick<BaselineDelta, 'unit' | 'change'>): string => (inPoints(d) ? formatPoints(d.change * 100) : formatChange(d.change));

/** The change a delta was allowed, either way: "±12.3%", or "±1.0 points" for a share. */
export const formatDeltaAllowed = (d: Pick<BaselineDelta, 'unit' | 'allowed'>): string => (inPoints(d) ? formatPoints(d.allowed * 100) : formatChange(d.allowed)).replace(/^\+/, '±');

/** A sweep step's outcome in a word: the SLO held, broke, or the step measured the generator, not the node. */
export const stepOutcome = (step: SweepStep): 'held' | 'broken' | 'not measured' => (step.sloHeld ? 'held' : step.generatorLimited ? 'not measured' : 'broken');
