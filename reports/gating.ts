import { LEVELS } from '../suites/model.js';
import type { CheckResult, Level } from '../suites/model.js';

/** True when a result at `level` counts against a run gated at `gate` (MUST is the strictest, PROFILE the widest). */
export function levelGates(level: Level, gate: Level): boolean {
  return LEVELS.indexOf(level) <= LEVELS.indexOf(gate);
}

/** A failure (or error) that a baseline entry excuses: shown, never counted against the run. */
export function isExpectedFailure(result: CheckResult): boolean {
  return result.baseline?.state === 'expected-fail' && (result.status === 'fail' || result.status === 'error');
}

/** A failure or error at or above the gate that no baseline excuses: what makes the run fail (RunSummary.gating). */
export function isGating(result: CheckResult, gate: Level): boolean {
  return (result.status === 'fail' || result.status === 'error') && !isExpectedFailure(result) && levelGates(result.level, gate);
}
