/**
 * The verdict of a load run, in one place, as suites/runner/verdict.ts is for a conformance run: reached once
 * into data (the word, the exit code, the reasons, the knee of each sweep, and the console's line), which the
 * command prints and returns and every report (reports/load/) only formats, never judging again.
 *
 * 99 as k6 has it: an SLO threshold broken, or a regression against the baseline beyond the noise. 1 when
 * the figures cannot be trusted (the generator fell behind) or a node stopped answering mid-run, before 99.
 * 130 when interrupted, before everything. The codes are the one table's (core/errors/exitCodes.ts).
 */
import { EXIT } from '../core/errors/exitCodes.js';
import { thresholdOutcome, thresholdSaid } from './figures.js';
import { inPoints } from './compareBaseline.js';
import { poolKneeNote } from './sweep/connectionPool.js';
import type { BaselineComparison, BaselineDelta, LoadReport, LoadRun, LoadVerdict, LoadVerdictWord, SweepResult } from './model.js';

export type { LoadVerdict, LoadVerdictWord } from './model.js';

export function loadVerdict(runs: readonly LoadRun[], sweeps: readonly SweepResult[], baseline: BaselineComparison | undefined, interrupted: boolean): LoadVerdict {
  const broken = runs.flatMap((r) => r.thresholds.filter((t) => thresholdOutcome(r, t) === 'broken').map((t) => `${t.name} (${thresholdSaid(t)} at ${r.url})`));
  const regressions = baseline?.deltas.filter((d) => d.regression) ?? [];
  // A run that died is invalid for that reason alone: said once, as `died`.
  const untrusted = runs.flatMap((r) => {
    const reasons = r.stop.reason === 'target-unreachable' ? r.invalid.filter((i) => !i.startsWith('the target became unreachable')) : r.invalid;
    return reasons.length === 0 ? [] : [`${r.url}: ${reasons.join('; ')}`];
  });
  const died = runs.filter((r) => r.stop.reason === 'target-unreachable').map((r) => `${r.url} ${diedWhen(r)}${r.stop.message === undefined ? '' : `: ${r.stop.message}`}`);
  // A step the generator could not drive measured nothing of the node: the SLO neither held nor broke there.
  const measured = (s: (typeof sweeps)[number]): typeof s.steps => s.steps.filter((step) => !step.generatorLimited);
  const knees = sweeps.map((s) =>
    s.knee === null
      ? measured(s).length === 0 && s.steps.length > 0
        ? `${s.url}: no rate was measured (the generator fell behind at every step it tried)`
        : `${s.url}: the SLO held at no rate tried`
      : s.steps.every((step) => step.sloHeld)
        ? `${s.url}: the SLO held at every rate tried, up to ${s.knee} requests/s (the knee lies above: raise --max-rate or the --rates)`
        : `${s.url}: knee at ${s.knee} requests/s${poolKneeNote(s)}`,
  );
  // A sweep whose search stopped where the generator fell behind found a lower bound at best.
  for (const s of sweeps) {
    if (s.stopped !== undefined) untrusted.push(`${s.url}: ${s.stopped}${s.knee === null ? '' : ` (the knee is at least ${s.knee} requests/s)`}`);
    const limited = s.steps.find((step) => step.generatorLimited);
    if (limited !== undefined) untrusted.push(`${s.url}: the generator fell behind at ${limited.rate} requests/s on every try, so the search stopped there${s.knee === null ? '' : ` (the knee is at least ${s.knee} requests/s)`}`);
  }
  // Most serious first: a dead node, figures that cannot be trusted, then what the node did wrong.
  const parts: string[] = [];
  if (died.length > 0) parts.push(died.join('; '));
  if (untrusted.length > 0) parts.push(`figures not to be trusted: ${untrusted.join('; ')}`);
  if (broken.length > 0) parts.push(`thresholds broken: ${broken.join(', ')}`);
  // A sweep whose SLO held at no rate it measured failed it at every one.
  const kneeless = sweeps.filter((s) => s.knee === null && measured(s).length > 0).map((s) => `${s.url}: the SLO held at no rate tried (${measured(s).map((st) => st.rate).join(', ')} requests/s)`);
  if (kneeless.length > 0) parts.push(kneeless.join('; '));
  // A share (errors%) changes in points, every other figure relatively, as the reports write them.
  const change = (d: BaselineDelta, v: number, sign: string): string => (inPoints(d) ? `${sign}${(Math.abs(v) * 100).toFixed(1)} points` : `${sign}${(Math.abs(v) * 100).toFixed(1)}%`);
  if (regressions.length > 0) parts.push(`regressions against the baseline: ${regressions.map((d) => `${d.metric} ${change(d, d.change, d.change < 0 ? '−' : '+')} (allowed ${change(d, d.allowed, '±')})`).join(', ')}`);
  const verdict = (word: LoadVerdictWord, exitCode: LoadVerdict['exitCode'], reasons: string[]): LoadVerdict => ({ word, exitCode, reasons, knees, summary: `${word}: ${reasons.join('; ')}` });
  if (interrupted) return verdict('INTERRUPTED', EXIT.interrupted, ['the report holds what ran before Ctrl-C', ...parts]);
  // Figures that cannot be trusted (the generator fell behind, the node died) come first: a threshold they
  // break may be the generator's doing, and a dead node is the news.
  if (died.length > 0 || untrusted.length > 0) return verdict('NOT TRUSTED', EXIT.untrusted, parts);
  if (broken.length > 0 || regressions.length > 0 || kneeless.length > 0) return verdict('FAILED', EXIT.thresholds, parts);
  const kept = runs.reduce((n, r) => n + r.thresholds.length, 0);
  const base = baseline === undefined ? '' : `, no regression against ${baseline.file}`;
  return verdict('PASSED', EXIT.ok, runs.length === 0 ? knees : [`${kept} threshold${kept === 1 ? '' : 's'} kept${base}`, ...knees]);
}

export interface LoadHeadline {
  word: LoadVerdictWord;
  /** "FAILED (exit 99): thresholds broken: ...", the first thing every load report says. */
  line: string;
}

/** The verdict line every load report leads with, taken from the verdict the command reached (never judged again). */
export function loadHeadline(report: Pick<LoadReport, 'verdict'>): LoadHeadline {
  const { word, exitCode, reasons } = report.verdict;
  return { word, line: `${word} (exit ${exitCode})${reasons.length === 0 ? '' : `: ${reasons.join('; ')}`}` };
}

/** The verdict word as a CSS class name part: "passed", "not-trusted". */
export const verdictClass = (word: LoadVerdictWord): string => word.toLowerCase().replace(/ /g, '-');

/**
 * When a node that became unreachable stopped answering: from the outage still open at the end of its run (the
 * first failed request's scheduled time), which is when its clients saw it go, not when the run gave up on it
 * (that is unreachableMs later); the stop's time when no outage was kept.
 */
function diedWhen(r: LoadRun): string {
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const open = r.outages?.kept.findLast((o) => o.toMs === null);
  if (open === undefined || open.fromMs > r.stop.atMs) return `stopped answering ${s(r.stop.atMs)} into the run`;
  return `stopped answering ${s(Math.max(0, open.fromMs))} into the run (the run stopped at ${s(r.stop.atMs)})`;
}
