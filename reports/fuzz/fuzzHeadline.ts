/**
 * The line every fuzz report leads with, and the console prints at the end of a run: how many findings on
 * which nodes, or that nothing was found in how many cases, or that nothing could be fuzzed. It only says
 * what the run holds and its verdict (fuzz/fuzzVerdict.ts: flaky sightings are said, never counted). "FUZZ: 3
 * findings on http://… in 10,000 cases (seed 42; 1 flaky sighting did not reproduce)", "FUZZ: no finding in
 * 10,000 cases (seed 42, 50.0 s, http://…)".
 */
import { fuzzVerdict } from '../../fuzz/fuzzVerdict.js';
import type { Finding, FuzzRun, TargetSummary } from '../../fuzz/model.js';
import { formatDuration } from '../shared/formatDuration.js';
import { formatCount } from '../load/formatLoad.js';

/** FOUND: at least one finding; CLEAN: cases were sent and nothing was found; NOTHING: no case was sent. */
export type FuzzHeadlineWord = 'FOUND' | 'CLEAN' | 'NOTHING';

export interface FuzzHeadline {
  word: FuzzHeadlineWord;
  line: string;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${formatCount(n)} ${n === 1 ? one : many}`;

/** Nodes as a phrase: one URL, two joined by "and", or "N nodes". */
export function nodesPhrase(urls: readonly string[]): string {
  const distinct = [...new Set(urls)];
  if (distinct.length <= 2) return distinct.join(' and ');
  return `${distinct.length} nodes`;
}

/** Why the run ended, when it is worth saying: it was interrupted, or every node stopped answering. */
export function stopPhrase(run: FuzzRun): string | undefined {
  if (run.stop === 'interrupted') return 'interrupted';
  if (run.stop !== 'all-targets-stopped') return undefined;
  const one = run.targets.length === 1;
  if (run.targets.every((t) => t.state === 'unreachable')) return one ? 'the node never answered' : 'no node answered';
  return one ? 'the node stopped answering' : 'every node stopped answering';
}

/** The nodes that never answered (each named: one of two left out of a run must not go unsaid). */
export const unreachableUrls = (run: FuzzRun): string[] => run.targets.filter((t) => t.state === 'unreachable').map((t) => t.url);

/**
 * What the headline says of nodes that did not answer at the start, when others were fuzzed: "http://b did not
 * answer at the start: not fuzzed". Every such node by its URL, however many: a differential run that quietly
 * became a run on one node has compared nothing.
 */
export function unreachablePhrase(run: FuzzRun): string | undefined {
  const urls = [...new Set(unreachableUrls(run))];
  if (urls.length === 0 || urls.length === run.targets.length) return undefined;
  return `${urls.join(' and ')} did not answer at the start: not fuzzed`;
}

/** The sentence a report gives nodes that did not answer at the start, beside others that did (undefined: none such). */
export function unreachableNote(run: FuzzRun): string | undefined {
  if (unreachablePhrase(run) === undefined) return undefined;
  const urls = [...new Set(unreachableUrls(run))];
  return `${urls.join(' and ')} did not answer a known-good call (chain_blockNumber) at the start: no case was sent to ${urls.length === 1 ? 'it' : 'them'}, so nothing was judged or compared there.`;
}

/** The verdict line of a run (the words are the report's, the facts the run's). */
export function fuzzHeadline(run: FuzzRun): FuzzHeadline {
  const stop = stopPhrase(run);
  const unreachable = unreachablePhrase(run);
  const fuzzed = run.targets.filter((t) => t.state !== 'unreachable').map((t) => t.url);
  const verdict = fuzzVerdict(run);
  const flaky = uncountedPhrase(verdict.flaky).map((p) => `; ${p}`).join('');
  if (verdict.word === 'FOUND') {
    const where = nodesPhrase(verdict.standing.map((f) => f.url));
    const line = `FUZZ: ${plural(verdict.standing.length, 'finding')} on ${where} in ${plural(run.cases, 'case')} (seed ${run.seed}${flaky}${[unreachable, stop].map((p) => (p === undefined ? '' : `; ${p}`)).join('')})`;
    return { word: 'FOUND', line };
  }
  if (verdict.word === 'NOTHING') {
    const none = unreachableUrls(run);
    const why = none.length > 0 ? `${nodesPhrase(none)} did not answer` : (stop ?? 'no case was sent');
    return { word: 'NOTHING', line: `FUZZ: nothing fuzzed: ${why} (seed ${run.seed})` };
  }
  const facts = [`seed ${run.seed}`, formatDuration(run.durationMs), nodesPhrase(fuzzed), ...(stop === undefined ? [] : [stop])];
  return { word: 'CLEAN', line: `FUZZ: no finding in ${plural(run.cases, 'case')} (${facts.join(', ')}${flaky}${unreachable === undefined ? '' : `; ${unreachable}`})` };
}

/** The CSS class of a headline's word, in the palette every report shares (pass, fail, error). */
export const headlineClass = (word: FuzzHeadlineWord): 'passed' | 'failed' | 'error' => (word === 'FOUND' ? 'failed' : word === 'CLEAN' ? 'passed' : 'error');

const wasWere = (n: number): string => (n === 1 ? 'was' : 'were');

/**
 * Why a node was sent fewer cases than the run made (its `cases` against the run's), so that the node table and the
 * headline's count are told apart, never left to disagree: a case is counted by the run when it is made, and by a
 * node when it is sent to it, which it is not once the node has stopped answering (the case made as the last node
 * died is sent to none). Undefined: it was sent them all.
 */
export function unsentNote(run: FuzzRun, t: TargetSummary): string | undefined {
  const unsent = run.cases - t.cases;
  if (unsent <= 0) return undefined;
  if (t.state === 'unreachable') return `it never answered: none of the run's ${plural(run.cases, 'case')} was sent to it`;
  if (t.state === 'stopped') return `${formatCount(unsent)} of the run's ${plural(run.cases, 'case')} ${wasWere(unsent)} made after it stopped answering, so not sent to it`;
  return `${formatCount(unsent)} of the run's ${plural(run.cases, 'case')} ${wasWere(unsent)} not sent to it`;
}

/** What the run's case count holds that no node was sent, when every node had stopped (undefined: nothing such). */
export function unsentByAllNote(run: FuzzRun): string | undefined {
  const most = Math.max(0, ...run.targets.map((t) => t.cases));
  const unsent = run.cases - most;
  if (unsent <= 0 || run.targets.some((t) => t.state === 'answering')) return undefined;
  return `${formatCount(unsent)} of the ${plural(run.cases, 'case')} ${wasWere(unsent)} made after every node had stopped answering, and sent to none (a node's count is of the cases sent to it)`;
}

/**
 * The sightings not counted, as a verdict says them: those re-sent that did not show again ("flaky"), and those the
 * time budget left unsent, which are no less real for it (an outside tester's node slow on one request every time
 * read as one that "did not reproduce").
 */
export function uncountedPhrase(uncounted: readonly Pick<Finding, 'recheck'>[]): string[] {
  const unsent = uncounted.filter((f) => f.recheck === 'out-of-time').length;
  const flaky = uncounted.length - unsent;
  return [...(flaky > 0 ? [`${plural(flaky, 'flaky sighting')} did not reproduce`] : []), ...(unsent > 0 ? [`${plural(unsent, 'sighting')} not re-sent (the time budget ran out)`] : [])];
}
