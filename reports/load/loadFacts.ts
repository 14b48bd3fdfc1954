/**
 * What a load report says under its verdict line: the facts behind the verdict, the runs, how a run stopped.
 * The verdict itself (its word, exit code and reasons, and the headline) is reached once, by load/loadVerdict.ts.
 */

import type { LoadReport, LoadRun } from '../../load/model.js';
import { formatDuration } from '../shared/formatDuration.js';
import { formatDeltaAllowed, formatDeltaChange, formatMetricValue, formatRate, thresholdOutcome } from './formatLoad.js';

/** Every run of the report: the --url runs, then each sweep's steps. */
export const allRuns = (report: LoadReport): LoadRun[] => [...report.runs, ...report.sweeps.flatMap((s) => s.steps.map((step) => step.run))];

/** A run that measured nothing: it ended (Ctrl-C, say) before its warm-up did, so no figure of it stands for the node. */
export const measuredNothing = (run: LoadRun): boolean => run.durationMs === 0 && run.latency.count === 0 && run.schedule.scheduled === 0;

/** What a report says of a run's window: "10 s measured after 2 s of warm-up", or that nothing was. */
export function windowText(run: LoadRun): string {
  if (measuredNothing(run)) return `nothing measured: the run ended before its measured window opened${run.warmupMs > 0 ? `, in its ${formatDuration(run.warmupMs)} warm-up` : ''}`;
  return `${formatDuration(run.durationMs)} measured${run.warmupMs > 0 ? ` after ${formatDuration(run.warmupMs)} of warm-up` : ''}`;
}

/** One stop reason as a sentence, or undefined when the run completed. */
export function stopNote(run: LoadRun): string | undefined {
  const { stop } = run;
  if (stop.reason === 'completed') return undefined;
  const what = { interrupted: 'interrupted', 'target-unreachable': 'stopped: the node could not be reached', deadline: 'stopped at its deadline' }[stop.reason];
  const when = stop.atMs > 0 ? ` after ${formatDuration(stop.atMs)} of measurement` : ' before measurement began';
  return `${what}${when}${stop.message === undefined ? '' : ` (${stop.message})`}`;
}

/**
 * What stands behind the verdict, one plain sentence each, most serious first: runs that are invalid and
 * why, runs that stopped early, thresholds broken (and how many kept), regressions against the baseline,
 * sweeps without a knee. Sweep steps above the knee break thresholds by design: they are left to the
 * sweep's own table.
 */
export function verdictFacts(report: LoadReport): string[] {
  const facts: string[] = [];
  const several = report.runs.length > 1;
  const on = (run: LoadRun): string => (several ? ` on ${run.url}` : '');
  for (const run of report.runs) {
    if (!run.valid) facts.push(`Run invalid${on(run)}: ${run.invalid.length > 0 ? run.invalid.join('; ') : 'no reason given'}.`);
    const stopped = stopNote(run);
    if (stopped !== undefined) facts.push(`Run ${stopped}${on(run)}.`);
  }
  const all = report.runs.flatMap((run) => run.thresholds.map((t) => ({ run, t, outcome: thresholdOutcome(run, t) })));
  const thresholds = all.filter(({ outcome }) => outcome !== 'not judged');
  const broken = thresholds.filter(({ outcome }) => outcome === 'broken');
  for (const { run, t } of broken) facts.push(`Threshold broken${on(run)}: ${t.name} (actual ${formatMetricValue(t.unit, t.actual)}, limit ${formatMetricValue(t.unit, t.limit)}).`);
  if (thresholds.length > 0) facts.push(`${thresholds.length - broken.length} of ${thresholds.length} threshold(s) kept.`);
  if (all.length > thresholds.length) facts.push(`${all.length - thresholds.length} threshold(s) not judged: the run was interrupted, and they speak of the whole window.`);
  for (const d of report.baseline?.deltas.filter((x) => x.regression) ?? []) {
    facts.push(`Regression: ${d.metric} ${formatMetricValue(d.unit, d.baseline)} → ${formatMetricValue(d.unit, d.current)} (${formatDeltaChange(d)}, allowed ${formatDeltaAllowed(d)}).`);
  }
  for (const sweep of report.sweeps) {
    facts.push(
      sweep.knee === null
        ? `Sweep on ${sweep.url}: the SLO held at no rate.`
        : sweep.steps.every((s) => s.sloHeld)
          ? `Sweep on ${sweep.url}: the SLO held at every rate tried, up to ${formatRate(sweep.knee)} req/s; the knee lies above.`
          : `Sweep on ${sweep.url}: knee at ${formatRate(sweep.knee)} req/s (the highest rate where the SLO held).`,
    );
  }
  return facts;
}
