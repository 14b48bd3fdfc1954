import type { RunResult } from '../suites/model.js';

export type VerdictWord = 'CERTIFIED' | 'PASSED' | 'FAILED';

export interface Headline {
  word: VerdictWord;
  /** "FAILED at gate MUST: 3 gating failures", the first thing every report says. */
  line: string;
}

/** The verdict every report leads with, taken from the run's summary (reports never re-judge a run). */
export function verdictHeadline(run: RunResult): Headline {
  const { summary, gate } = run;
  const word: VerdictWord = summary.certified ? 'CERTIFIED' : summary.passed ? 'PASSED' : 'FAILED';
  const detail = summary.verdict.trim();
  return { word, line: `${word} at gate ${gate}${detail === '' ? '' : `: ${detail}`}` };
}
