/**
 * The faults of a run with faults (report.chaos) as markers on one run's time charts. An event's time counts
 * from the schedule's t = 0 (chaos.originAt); each chart counts from its own origin, so every event is moved
 * by the distance between the two:
 * - the charts of the run's timeline (latency, throughput, errors, pending) count from the run's own start of
 *   measurement, which its engine reached a worker's start-up after the schedule's t = 0;
 * - the head lag and the process's charts count from the run's health origin (head.startedAt; the process
 *   samples are timed from the same instant, load/runLoad.ts). Without a head that origin is not in the
 *   report, and those charts get no markers (a run with faults always follows the heads).
 */
import type { ChaosAction, ChaosEvent, ChaosReport, LoadRun } from '../../load/model.js';
import { formatMs } from './formatLoad.js';

/** One event on a chart's clock. */
export interface TimeMarker {
  /** ms on the chart's own clock. */
  tMs: number;
  /** "kill mn2", "restart any-mn (not done)". */
  label: string;
  /** The tooltip: the step as written, when it was done on the schedule and on the chart, why it was not done. */
  title: string;
  done: boolean;
  action: ChaosAction;
}

/** One run's markers, on each of its clocks. */
export interface RunMarkers {
  /** On the run's timeline (ms from its own start of measurement). */
  measured: TimeMarker[];
  /** On its health origin (the head lag's and the process's series); empty when the run followed no head. */
  health: TimeMarker[];
}

/** The node acted on, or the step's target where none could be chosen (a role no node had at that moment). */
function whom(chaos: ChaosReport, e: ChaosEvent): string {
  if (e.node !== null) return e.node;
  const step = chaos.steps.find((s) => s.text === e.text.replace(/ \(end\)$/, ''));
  // A user's command (--chaos-exec) acts on no node chainrpc names: its label is the command, cut short.
  if (e.action === 'exec') {
    const command = step?.command ?? '';
    return command.length > 24 ? `${command.slice(0, 23)}…` : command;
  }
  return step?.target ?? '?';
}

/** Every event of `chaos` on the charts of `run`: computed once per run, then handed to each chart. */
export function chaosMarkers(chaos: ChaosReport | undefined, run: Pick<LoadRun, 'startedAt' | 'warmupMs' | 'health'>): RunMarkers {
  const origin = chaos === undefined ? Number.NaN : Date.parse(chaos.originAt);
  if (chaos === undefined || chaos.events.length === 0 || !Number.isFinite(origin)) return { measured: [], health: [] };
  const on = (chartOrigin: number): TimeMarker[] => {
    if (!Number.isFinite(chartOrigin)) return [];
    const shift = origin - chartOrigin;
    return chaos.events.map((e): TimeMarker => {
      const done = e.error === undefined;
      const what = `${e.action} ${whom(chaos, e)}`;
      const tMs = e.atMs + shift;
      return {
        tMs,
        label: done ? what : `${what} (not done)`,
        title: `${what} (${e.text}), ${formatMs(e.atMs)} into the fault schedule; ${(tMs / 1000).toFixed(2)} s on this chart${done ? '' : `. Not done: ${e.error ?? ''}`}`,
        done,
        action: e.action,
      };
    });
  };
  const head = run.health?.head;
  return {
    measured: on(Date.parse(run.startedAt) + run.warmupMs),
    health: head === undefined ? [] : on(Date.parse(head.startedAt)),
  };
}
