/**
 * A replay in words, for the HTML and Markdown reports alike (docs/replay.md): the capture, how it was paced,
 * what of it went, what was left out and why, and every change made to what was sent.
 */
import type { LoadRun, ReplayDiff, ReplayReport } from '../../load/model.js';
import { formatDuration } from '../shared/formatDuration.js';
import { formatCount, formatRate } from './formatLoad.js';

export const REPLAY_HEAD = ['', ''];

/** Label and value, one row each. */
export function replayRows(replay: ReplayReport): string[][] {
  const pace = 'speed' in replay.pace ? `the recorded offsets divided by ${replay.pace.speed} (${replay.pace.speed}x)` : `the recorded order at ${formatRate(replay.pace.rate)} req/s`;
  const leftOut = replay.leftOut.length === 0 ? 'nothing' : replay.leftOut.map((l) => `${formatCount(l.count)} ${l.reason}`).join(', ');
  return [
    ['Capture', replay.capture],
    ['Replayed', `${formatCount(replay.replayed)} of ${formatCount(replay.exchanges)} exchanges${replay.loop ? ', in a loop' : ''}`],
    ['Pace', `${pace}: a pass lasts ${formatDuration(replay.spanMs)}, ${formatRate(replay.rate)} req/s on average`],
    ['Left out', leftOut],
    ...replay.transformations.map((t, i) => [i === 0 ? 'Changes' : '', t]),
  ];
}

/** A run's diff in one sentence. */
export function diffLine(run: Pick<LoadRun, 'url'>, diff: ReplayDiff): string {
  const verdict = diff.mismatches === 0 ? 'no mismatch' : `${formatCount(diff.mismatches)} mismatch${diff.mismatches === 1 ? '' : 'es'}`;
  const aside = diff.setAside > 0 ? `, ${formatCount(diff.setAside)} set aside (answers that may differ at one instant)` : '';
  return `${run.url} against ${diff.url}: ${formatCount(diff.compared)} calls compared, ${verdict}${aside}${diff.notCompared > 0 ? `, ${formatCount(diff.notCompared)} not compared (no answer to compare: a node gave none, or the recorded one was cut)` : ''}.`;
}

export const DIFF_METHOD_HEAD = ['Method', 'Compared', 'Mismatches', 'Set aside', 'Not compared'];

export function diffMethodRows(diff: ReplayDiff): string[][] {
  return diff.byMethod.map((m) => [m.method, formatCount(m.compared), formatCount(m.mismatches), formatCount(m.setAside), formatCount(m.notCompared)]);
}

export const DIFF_EXAMPLE_HEAD = ['Method', 'Why', 'Request', 'This node', 'The other'];

export function diffExampleRows(diff: ReplayDiff): string[][] {
  return diff.examples.map((e) => [e.method, e.why, e.request, e.answer, e.other]);
}
