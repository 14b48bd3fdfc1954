/**
 * One node's clients at each fault of a run (docs/chaos.md), from the run's outages (load/metrics/OutageLog.ts)
 * and its transactions' ledger:
 * - failed calls of an event: those of the outages it caused (ownerOf: an outage belongs to the fault on its node
 *   that it began under, not to whatever came next);
 * - recovery: from the event to the later end of the outage the clients were in at the event and of the first it
 *   caused: their first successful call again; 0 when they saw no call fail, null when none succeeded again by
 *   the end of the run;
 * - failover: the longest time from an event to the chain's next block (the same for every node of the network).
 */
import type { ChaosEvent, ChaosReport, LoadRun, Outage, RunChaos } from '../model.js';
import type { TransactionLedger } from '../inclusion/InclusionTracker.js';
import { RETURN_OF } from './chaosPlan.js';

/** How long before an event a failed request may have been scheduled and still be the event's (it was in flight then). */
export const IN_FLIGHT_MS = 1_000;

/** An event done, as ownerOf reads it. */
type Done = Pick<ChaosEvent, 'action' | 'node' | 'atMs'>;

/** The actions that end a fault (restart, resume, heal): they bring a node back, they cannot fail a call in flight. */
const ENDS_A_FAULT: ReadonlySet<string> = new Set(Object.values(RETURN_OF));

/**
 * The event that caused an outage of `node`'s clients (its index in `done`), or -1 when none did. Only an event
 * that hit the node (by name) or the network (a --chaos-exec command: which node it hit is not known) is looked
 * for first; in this order:
 * 1. the latest fault on the node that came at or before the outage began and was not yet ended by its return;
 * 2. a fault on the node that came within IN_FLIGHT_MS after the outage began, while it was still open (its first
 *    failed request was in flight when the node fell);
 * 3. the latest event on the node or the network at or before the outage began (calls refused after a restart; a
 *    command, whose end is not known);
 * 4. a command that came within IN_FLIGHT_MS after it began, while it was still open;
 * 5. the latest event on another node at or before it began (a fault elsewhere can fail this node's calls);
 * 6. the first event on the node or the network while it was open (it began before any).
 * A return (resume, restart, heal) never takes the outage of the fault it ends: that outage began before it.
 */
export function ownerOf(o: Pick<Outage, 'fromMs' | 'toMs'>, node: string, done: readonly Done[]): number {
  const on = (e: Done): boolean => e.node === node;
  const here = (e: Done): boolean => on(e) || e.node === null;
  const isFault = (e: Done): boolean => !ENDS_A_FAULT.has(e.action);
  const openAt = (e: Done): boolean => o.toMs === null || o.toMs > e.atMs;
  const upTo = (e: Done): boolean => e.atMs <= o.fromMs;
  const justAfter = (e: Done): boolean => e.atMs > o.fromMs && e.atMs <= o.fromMs + IN_FLIGHT_MS && openAt(e);
  const endedBy = (fault: Done, e: Done): boolean => e.node === fault.node && e.action === RETURN_OF[fault.action] && e.atMs > fault.atMs && upTo(e);
  const inEffect = (e: Done): boolean => on(e) && isFault(e) && upTo(e) && !done.some((r) => endedBy(e, r));
  const latest = (ok: (e: Done) => boolean): number => done.findLastIndex(ok);
  const first = (ok: (e: Done) => boolean): number => done.findIndex(ok);
  const rules = [
    () => latest(inEffect),
    () => first((e) => on(e) && isFault(e) && justAfter(e)),
    () => latest((e) => here(e) && upTo(e)),
    () => first((e) => e.node === null && justAfter(e)),
    () => latest(upTo),
    () => first((e) => here(e) && e.atMs > o.fromMs && openAt(e)),
  ];
  for (const rule of rules) {
    const i = rule();
    if (i !== -1) return i;
  }
  return -1;
}

/**
 * What `node`'s clients saw at each event done. `events` are in time order; `node` is the run's node by its name in
 * the network (mn1, ln2; node1 for a network chainrpc did not start, whose events are all commands).
 */
export function clientsAtFaults(run: Pick<LoadRun, 'outages'>, node: string, events: readonly ChaosEvent[], ledger: TransactionLedger | undefined, consistency?: ChaosReport['consistency']): RunChaos {
  const outages = run.outages?.kept ?? [];
  const done = events.filter((e) => e.error === undefined);
  const owners = outages.map((o) => ownerOf(o, node, done));
  const perEvent = done.map((e, i) => {
    const opened = outages.filter((_, k) => owners[k] === i);
    const byMethod: Record<string, number> = {};
    for (const o of opened) for (const [m, n] of Object.entries(o.byMethod)) byMethod[m] = (byMethod[m] ?? 0) + n;
    // Recovered once both the outage the clients were in at the event and the first to begin after it have ended: a
    // node failing a call now and then had a 3 ms outage open at the instant of a 2 s refusal, and read recovery 3 ms.
    const first = laterEnd(recoveredBy(e, node, outages, owners), opened.find((o) => o.fromMs >= e.atMs) ?? opened[0]);
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
    forks: forksSeenBy(node, consistency),
    lostTx: ledger?.lost.count ?? null,
    duplicateTx: ledger?.duplicated.count ?? null,
    lostExamples: ledger?.lost.examples ?? [],
    duplicateExamples: ledger?.duplicated.examples ?? [],
  };
}

/**
 * The outage `node`'s clients were in when an event on it (or the network) came, caused by any event: its end is
 * their first success again after the event (a resume's clients still waiting out the pause). Later stretches of
 * the event's window (a sender refused after a restart) are counted as its failed calls, not as its recovery. An
 * event on another node has only the outages it caused.
 */
/** Of two outages, the one that ended later (one never ended: that one); either when the other is undefined. */
function laterEnd(a: Outage | undefined, b: Outage | undefined): Outage | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  if (a.toMs === null || b.toMs === null) return a.toMs === null ? a : b;
  return b.toMs > a.toMs ? b : a;
}

function recoveredBy(e: Done, node: string, outages: readonly Outage[], owners: readonly number[]): Outage | undefined {
  if (e.node !== node && e.node !== null) return undefined;
  return outages.find((o, k) => owners[k] !== -1 && o.fromMs <= e.atMs && (o.toMs === null || o.toMs > e.atMs));
}

/**
 * Why a run's figures at faults do not measure the drill that was planned, when a step of it was not done (no node
 * could be chosen, the action or the user's command failed, the run ended first): each step left out, with why.
 * The run is then not to be trusted (docs/chaos.md), as one whose generator fell behind: a threshold on recovery
 * or failover kept without its fault would pass a drill that did not happen. Undefined when every step was done.
 */
export function faultsNotDone(events: readonly Pick<ChaosEvent, 'text' | 'error'>[]): string | undefined {
  const missed = events.filter((e) => e.error !== undefined);
  if (missed.length === 0) return undefined;
  const which = missed.map((e) => `\`${e.text}\` (${e.error ?? ''})`).join(', ');
  return `the fault schedule was not carried out (${missed.length} of its ${events.length} steps not done: ${which}): the figures at faults (failover, recovery, lost-tx, duplicate-tx, forks) measure another drill than the one planned`;
}

/**
 * The network's forks as a figure of `node`'s run: counted when the chain was compared on it and at least one other
 * node; else nothing measured (a node down or silent after the run, or alone, may hold a block no other has).
 */
function forksSeenBy(node: string, consistency: ChaosReport['consistency'] | undefined): number | null {
  if (consistency === undefined || consistency === null || consistency.error !== undefined) return null;
  return consistency.nodes.length >= 2 && consistency.nodes.includes(node) ? consistency.forks.length : null;
}
