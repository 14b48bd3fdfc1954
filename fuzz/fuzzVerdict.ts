/**
 * A fuzz run's verdict, decided once, as data (like load/loadVerdict.ts and the suite's verdict): the findings
 * that stand (re-checked and reproduced, or seen killing a node), the flaky ones apart (seen once, not again:
 * reported, never counted), the word and the exit code. The console, the reports and the exit code read it.
 */
import { EXIT, type ExitCode } from '../core/errors/exitCodes.js';
import type { Finding, FuzzRun } from './model.js';

export interface FuzzVerdict {
  /** FOUND: findings stand; CLEAN: cases were sent and none stands; NOTHING: no case was sent. */
  word: 'FOUND' | 'CLEAN' | 'NOTHING';
  /** The findings that count: reproduced, or not re-checkable because the node was dead. */
  standing: Finding[];
  /** Seen once and not again when re-sent, or never re-sent for want of time: said, never counted. */
  flaky: Finding[];
  exitCode: ExitCode;
}

export function fuzzVerdict(run: Pick<FuzzRun, 'findings' | 'cases' | 'stop'>): FuzzVerdict {
  // A sighting the time budget left no time to re-send is no more proven than a flaky one: said, never counted.
  const counted = (f: Finding): boolean => f.recheck !== 'flaky' && f.recheck !== 'out-of-time';
  const standing = run.findings.filter(counted);
  const flaky = run.findings.filter((f) => !counted(f));
  const word = standing.length > 0 ? 'FOUND' : run.cases === 0 ? 'NOTHING' : 'CLEAN';
  const exitCode = run.stop === 'interrupted' ? EXIT.interrupted : standing.length > 0 ? EXIT.nodeError : EXIT.ok;
  return { word, standing, flaky, exitCode };
}
