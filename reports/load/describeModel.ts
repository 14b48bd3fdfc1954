import type { ArrivalModel } from '../../load/model.js';
import { formatDuration } from '../shared/formatDuration.js';
import { formatCount, formatRate } from './formatLoad.js';

/**
 * How requests arrived, in words: "open (poisson arrivals): 2,000 req/s for 60 s", "open (uniform arrivals):
 * 100 → 2,000 req/s over 30 s, then 2,000 req/s for 1 min 00 s", "closed: 64 connections", a replay's
 * "open (the recorded times of a capture): 380 req/s on average for 4.3 s".
 */
export function describeModel(model: ArrivalModel): string {
  if (model.kind === 'open' && model.distribution === 'recorded') {
    // A replay's stages are its rate second by second: the mean says it, the capture's times do the rest.
    const ms = model.stages.reduce((n, s) => n + s.durationMs, 0);
    const sent = model.stages.reduce((n, s) => n + ((s.from + s.to) / 2) * (s.durationMs / 1000), 0);
    return `open (the recorded times of a capture): ${formatRate(ms > 0 ? (sent * 1000) / ms : 0)} req/s on average for ${formatDuration(ms)}`;
  }
  if (model.kind === 'closed') return `closed: ${formatCount(model.connections)} connection${model.connections === 1 ? '' : 's'}, each sending when its last request is answered`;
  const stages = model.stages.map((s) =>
    s.from === s.to ? `${formatRate(s.from)} req/s for ${formatDuration(s.durationMs)}` : `${formatRate(s.from)} → ${formatRate(s.to)} req/s over ${formatDuration(s.durationMs)}`,
  );
  return `open (${model.distribution} arrivals): ${stages.length === 0 ? 'no stage' : stages.join(', then ')}`;
}
