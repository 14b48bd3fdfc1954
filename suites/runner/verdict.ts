/**
 * The verdict of a conformance run, in one place: which results fail a run at a gate (`--level`), what a
 * baseline excuses, when a run passes and when it is certified, its exit code, and the headline every
 * report and the console lead with. The runner sums a run with `summarize`; reports and the CLI read the
 * summary and ask `isGating` / `isExpectedFailure` about single results. None of them judges otherwise.
 */
import { LEVELS } from '../model.js';
import type { CheckResult, Level, RunResult, RunSummary } from '../model.js';

/** True when a result at `level` counts against a run gated at `gate` (MUST is the strictest, PROFILE the widest). */
export function levelGates(level: Level, gate: Level): boolean {
  return LEVELS.indexOf(level) <= LEVELS.indexOf(gate);
}

/** A failure (or error) that a baseline entry excuses: shown, never counted against the run. An expired entry excuses nothing. */
export function isExpectedFailure(result: CheckResult): boolean {
  return result.baseline?.state === 'expected-fail' && (result.status === 'fail' || result.status === 'error');
}

/** A failure or error at or above the gate that no baseline excuses: what makes the run fail (RunSummary.gating). */
export function isGating(result: CheckResult, gate: Level): boolean {
  return (result.status === 'fail' || result.status === 'error') && !isExpectedFailure(result) && levelGates(result.level, gate);
}

/**
 * Counts per level and status, the gating results, and the verdict: passed when nothing gates and some
 * target answered; certified when it passed and every MUST requirement was seen to hold, whatever the
 * gate: every MUST result a pass (none skipped, none excused by a baseline) and no MUST check left out
 * of the run (`mustLeftOut`, by --only / --skip). Exit code 0 passed, 1 not, 3 when no target answered
 * JSON-RPC: certification is a claim the reports make, never a different exit code.
 */
export function summarize(results: readonly CheckResult[], gate: Level, noTarget: boolean, mustLeftOut = 0, interrupted = false): RunSummary {
  const counts = Object.fromEntries(LEVELS.map((l) => [l, { pass: 0, fail: 0, error: 0, skip: 0 }])) as RunSummary['counts'];
  let gating = 0;
  for (const r of results) {
    counts[r.level][r.status]++;
    if (isGating(r, gate)) gating++;
  }
  // Interrupted (Ctrl-C): what ran is reported, but a run that did not end neither passes nor certifies.
  const passed = gating === 0 && !noTarget && !interrupted;
  // A MUST failure or error gates at every gate: in a run that passed, each one is excused by the baseline.
  const { skip: skipped, fail, error } = counts.MUST;
  const excused = fail + error;
  const certified = passed && skipped === 0 && excused === 0 && mustLeftOut === 0;
  const exitCode = interrupted ? 130 : noTarget ? 3 : passed ? 0 : 1;
  // The detail after the verdict word (verdictHeadline puts CERTIFIED / PASSED / FAILED / INTERRUPTED first).
  const scope = `${gate} level${gate === 'MUST' ? '' : ' or above'}`;
  const unseen = [
    skipped > 0 ? `${skipped} MUST check result(s) skipped` : '',
    excused > 0 ? `${excused} MUST check result(s) excused by the baseline` : '',
    mustLeftOut > 0 ? `${mustLeftOut} MUST check(s) left out by --only/--skip` : '',
  ].filter((t) => t !== '');
  const wasStopped = (r: CheckResult): boolean => r.status === 'error' && r.evidence.message.startsWith(INTERRUPTED_MESSAGE);
  const stopped = results.filter(wasStopped).length;
  // Of the gating results, those that ended on their own (the stopped ones gate too, at any level the gate takes).
  const failed = results.filter((r) => isGating(r, gate) && !wasStopped(r)).length;
  const verdict = interrupted
    ? `the run was interrupted (Ctrl-C): ${stopped} check result(s) without a verdict; of those that ended, ${failed} at ${scope} failed or could not be verified`
    : noTarget
    ? 'no target answered JSON-RPC, nothing was verified'
    : passed
      ? certified
        ? `no failure at ${scope}`
        : `no failure at ${scope}; not certified: ${unseen.join(', ')}`
      : `${gating} check result(s) at ${scope} failed or could not be verified`;
  return { counts, gating, passed, certified, exitCode, verdict };
}

export type VerdictWord = 'CERTIFIED' | 'PASSED' | 'FAILED' | 'INTERRUPTED';

/** How the result of a check the interruption stopped (or never started) begins. */
export const INTERRUPTED_MESSAGE = 'the run was interrupted (Ctrl-C)';

export interface Headline {
  word: VerdictWord;
  /** "FAILED at gate MUST: 3 check result(s) at MUST level failed or could not be verified", the first thing every report says. */
  line: string;
}

/** The verdict every report and the console lead with, taken from the run's summary (never judged again). */
export function verdictHeadline(run: Pick<RunResult, 'summary' | 'gate'>): Headline {
  const { summary, gate } = run;
  const word: VerdictWord = summary.exitCode === 130 ? 'INTERRUPTED' : summary.certified ? 'CERTIFIED' : summary.passed ? 'PASSED' : 'FAILED';
  const detail = summary.verdict.trim();
  return { word, line: `${word} at gate ${gate}${detail === '' ? '' : `: ${detail}`}` };
}
