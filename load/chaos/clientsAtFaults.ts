/**
 * One node's clients at each fault of a run (docs/chaos.md), from the run's outages (load/metrics/OutageLog.ts)
 * and its transactions' ledger:
 * - failed calls of an event: those of the outages it owns: an outage belongs to the last event at most
 *   IN_FLIGHT_MS after its first failed request was scheduled (a request in flight when the node fell was sent
 *   a moment before), and to the first event when it overlaps it but began before;
 * - recovery: from the event to the end of the outage the clients were in at the event, or of the first it
 *   opened: their first successful call again; 0 when they saw no call fail, null when none succeeded again by
 *   the end of the run;
 * - failover: the longest time from an event to the chain's next block (the same for every node of the network).
 */
import type { ChaosEvent, ChaosReport, LoadRun, Outage, RunChaos } from '../model.js';
import type { TransactionLedger } from '../inclusion/InclusionTracker.js';

/** How long before an event a failed request may have been scheduled and still be the event's (it was in flight then). */
export const IN_FLIGHT_MS = 1_000;

export function clientsAtFaults(run: Pick<LoadRun, 'outages'>, events: readonly ChaosEvent[], ledger: TransactionLedger | undefined, consistency?: ChaosReport['consistency']): RunChaos {
  const outages = run.outages?.kept ?? [];
  const done = events.filter((e) => e.error === undefined);
  const ownerOf = (o: Outage): number => {
    let owner = -1;
    done.forEach((e, i) => {
      if (e.atMs <= o.fromMs + IN_FLIGHT_MS) owner = i;
    });
    return owner === -1 && done[0] !== undefined && (o.toMs ?? Infinity) > done[0].atMs ? 0 : owner;
  };
  const owners = outages.map(ownerOf);
  const perEvent = done.map((e, i) => {
    const opened = outages.filter((_, k) => owners[k] === i);
    // The stretch the clients were in when the fault came, or the first one it opened: its end is their first
    // successful call again. Later stretches of the event's window (a sender refused after a restart) are
    // counted as its failed calls, not as its recovery.
    const first = outages.find((o, k) => owners[k] !== -1 && (owners[k] ?? -1) <= i && (o.toMs ?? Infinity) > e.atMs);
    const byMethod: Record<string, number> = {};
    for (const o of opened) for (const [m, n] of Object.entries(o.byMethod)) byMethod[m] = (byMethod[m] ?? 0) + n;
    const recoveryMs = first === undefined ? 0 : first.toMs === null ? null : Math.max(0, Math.round(first.toMs - e.atMs));
    const firstOpened = opened[0];
    return { text: e.text, atMs: e.atMs, failedCalls: opened.reduce((n, o) => n + o.failedCalls, 0), byMethod, firstFailureMs: firstOpened === undefined ? null : Math.round(firstOpened.fromMs - e.atMs), recoveryMs };
  });
  const recoveries = perEvent.map((e) => e.recoveryMs);
  const nexts = done.map((e) => e.nextBlockMs);
  return {
    events: perEvent,
    recoveryMs: recoveries.includes(null) ? null : Math.max(0, ...(recoveries as number[])),
    failoverMs: nexts.length === 0 || nexts.includes(null) ? null : Math.max(...(nexts as number[])),
    forks: consistency === undefined || consistency === null || consistency.error !== undefined ? null : consistency.forks.length,
    lostTx: ledger?.lost.count ?? null,
    duplicateTx: ledger?.duplicated.count ?? null,
    lostExamples: ledger?.lost.examples ?? [],
    duplicateExamples: ledger?.duplicated.examples ?? [],
  };
}
