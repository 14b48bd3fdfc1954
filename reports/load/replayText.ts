/**
 * A replay in words, for the HTML and Markdown reports alike (docs/replay.md): the capture, how it was paced,
 * what of it went, what was left out and why, and every change made to what was sent.
 */
import type { ReplayReport } from '../../load/model.js';
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
