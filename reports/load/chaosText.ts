/**
 * A run with faults in words and figures, for the HTML and Markdown reports alike (docs/chaos.md defines each):
 * the network's events (what was done, the leader before and after, the time to the next block, a returning
 * node's catch-up), the chain's consistency afterwards, and per node what its clients saw and its ledger.
 */
import type { ChaosReport, LoadRun } from '../../load/model.js';
import { formatCount, formatMs } from './formatLoad.js';

const DASH = '–';
const msOr = (v: number | null | undefined, none: string): string => (v === null || v === undefined ? none : formatMs(v));

/** One row per event of the network: time, action, node, leader before → after, next block, catch-up, note. */
export function chaosEventRows(chaos: ChaosReport): string[][] {
  return chaos.events.map((e) => [
    formatMs(e.atMs),
    e.text,
    e.node ?? DASH,
    `${e.leaderBefore ?? '?'} → ${e.leaderAfter ?? '?'}`,
    msOr(e.nextBlockMs, 'none by the end'),
    e.catchUpMs === undefined ? DASH : msOr(e.catchUpMs, 'not by the end'),
    e.error === undefined ? '' : `not done: ${e.error}`,
  ]);
}

export const CHAOS_EVENT_HEAD = ['At', 'Fault', 'Node', 'Leader before → after', 'Next block', 'Catch-up', ''];

/** The chain's consistency after the run, one sentence. */
export function consistencyText(chaos: ChaosReport): string {
  const c = chaos.consistency;
  if (c === null) return 'The chain was not compared across nodes.';
  if (c.error !== undefined) return `The chain could not be compared across nodes: ${c.error}.`;
  // A node down or silent after the run was not read: its blocks are no part of the verdict, and it is said.
  const missing = chaos.nodes.map((n) => n.name).filter((n) => !c.nodes.includes(n));
  const apart = missing.length === 0 ? '' : `; ${missing.join(', ')} not compared (not answering after the run)`;
  const span = `heights ${c.fromHeight} to ${c.toHeight} on ${c.nodes.join(', ')}`;
  if (c.nodes.length < 2) return `No fork could be seen: only ${c.nodes.join(', ')} answered after the run (${span}), with no other node to compare it with${apart}.`;
  if (c.forks.length === 0) return `No fork among the nodes compared: ${span} are the same blocks on each${apart}.`;
  const first = c.forks[0];
  return `FORKED: ${formatCount(c.forks.length)} heights served with different blocks (${span}); the first, height ${first?.height ?? '?'}: ${Object.entries(first?.hashes ?? {}).map(([n, hash]) => `${n} ${hash.slice(0, 12)}…`).join(', ')}${apart}.`;
}

/** One row per node (its name in the network, and its URL): the worst recovery, the failed calls over all events, lost and duplicated transactions. */
export function chaosRunRows(chaos: ChaosReport, runs: readonly LoadRun[]): string[][] {
  return runs.flatMap((r) => {
    const name = chaos.nodes.find((n) => n.url === r.url)?.name;
    const c = r.chaos;
    if (c === undefined) return [];
    const failed = c.events.reduce((n, e) => n + e.failedCalls, 0);
    const lost = c.lostTx === null ? 'not tracked' : `${formatCount(c.lostTx)}${c.lostExamples.length > 0 ? ` (${c.lostExamples.slice(0, 3).join(', ')}${c.lostTx > 3 ? ', …' : ''})` : ''}`;
    const dup = c.duplicateTx === null ? 'not tracked' : `${formatCount(c.duplicateTx)}${c.duplicateExamples.length > 0 ? ` (${c.duplicateExamples.slice(0, 2).join('; ')})` : ''}`;
    const lanes = r.inclusion?.lanes;
    const again = r.inclusion === undefined ? 'not tracked' : lanes === undefined ? '0' : `${formatCount(lanes.resent)} (${formatCount(lanes.resyncs)} lane stops)`;
    return [[name === undefined ? r.url : `${name} ${r.url}`, formatCount(failed), msOr(c.recoveryMs, 'not recovered by the end'), lost, dup, again]];
  });
}

export const CHAOS_RUN_HEAD = ['Node', 'Failed calls at faults', 'Recovery (worst)', 'Lost transactions', 'Included twice', 'Sent again'];

/** One run's events as its clients saw them. */
export function chaosClientRows(run: LoadRun): string[][] {
  return (run.chaos?.events ?? []).map((e) => [
    formatMs(e.atMs),
    e.text,
    formatCount(e.failedCalls),
    Object.entries(e.byMethod).map(([m, n]) => `${m} ${n}`).join(', ') || DASH,
    e.failedCalls === 0 && e.recoveryMs === 0 ? 'no call failed' : msOr(e.recoveryMs, 'not by the end'),
  ]);
}

export const CHAOS_CLIENT_HEAD = ['At', 'Fault', 'Failed calls', 'By method', 'First success again after'];
