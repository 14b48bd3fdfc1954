// Figures of a load report as people read them, the same in every report and on the console. Numbers are
// written in one locale (en-US: "1,234.5") so reports do not change with the machine that wrote them.
import type { FigureUnit, SweepStep } from '../../load/model.js';

const grouped = (value: number, decimals: number): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/** Milliseconds with three significant digits below 100 ("0.412", "4.12", "41.2"), whole above ("412", "4,120"). */
export function formatMsNumber(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  const abs = Math.abs(ms);
  if (abs === 0) return '0';
  if (abs < 1) return grouped(ms, 3);
  if (abs < 10) return grouped(ms, 2);
  if (abs < 100) return grouped(ms, 1);
  return grouped(Math.round(ms), 0);
}

/** Microseconds (the model's unit for latencies) shown in milliseconds: 412 µs reads "0.412 ms". */
export const formatMicros = (us: number): string => `${formatMsNumber(us / 1000)} ms`;

/** Milliseconds (time to inclusion, durations in the model's `...Ms` fields). */
export const formatMs = (ms: number): string => `${formatMsNumber(ms)} ms`;

/** A whole count with thousands separators. */
export const formatCount = (n: number): string => (Number.isFinite(n) ? grouped(Math.round(n), 0) : '?');

/** Requests per second: one decimal below 100, whole above. */
export const formatRate = (perSecond: number): string => (Number.isFinite(perSecond) ? grouped(perSecond, Math.abs(perSecond) < 100 && perSecond % 1 !== 0 ? 1 : 0) : '?');

/** A ratio (0..1) as a percentage with enough digits to tell small error rates apart: 0.000528 reads "0.053%". */
export function formatPercent(ratio: number): string {
  if (!Number.isFinite(ratio)) return '?';
  const pct = ratio * 100;
  const abs = Math.abs(pct);
  if (abs === 0) return '0%';
  if (abs < 0.01) return '< 0.01%';
  if (abs < 1) return `${grouped(pct, 3)}%`;
  if (abs < 10) return `${grouped(pct, 2)}%`;
  return `${grouped(pct, 1)}%`;
}

/** A signed relative change: +35.2%, −3.0% (a real minus sign, so it lines up in tables). */
export function formatChange(change: number): string {
  if (!Number.isFinite(change)) return '?';
  const text = grouped(Math.abs(change * 100), 1);
  return `${change > 0 ? '+' : change < 0 ? '−' : '±'}${text}%`;
}

/**
 * The value of a threshold or a baseline figure in its unit (FigureUnit of the model): "41.2 ms", "0.53%",
 * "1,200/s", "3". null is a threshold's figure when nothing was measured.
 */
export function formatMetricValue(unit: FigureUnit, value: number | null): string {
  if (value === null) return 'nothing measured';
  switch (unit) {
    case 'ms': return formatMs(value);
    case '%': return formatPercent(value / 100);
    case '/s': return `${formatRate(value)}/s`;
    case 'count': return formatCount(value);
  }
}

/** An axis tick: as short as the value allows ("0", "2.5", "1,500", "0.25"), no trailing zeros. */
export const formatTick = (value: number): string => value.toLocaleString('en-US', { maximumFractionDigits: 3 }).replace(/^-/, '−');

/** A sweep step's outcome in a word: the SLO held, broke, or the step measured the generator, not the node. */
export const stepOutcome = (step: SweepStep): 'held' | 'broken' | 'not measured' => (step.sloHeld ? 'held' : step.generatorLimited ? 'not measured' : 'broken');
