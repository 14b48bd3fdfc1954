/**
 * One engine thread's plan, its hooks and its result: plain data and callbacks, shared by the thread
 * (EngineThread.ts), the main thread's engine (runEngine.ts) and the worker (engineWorker.ts).
 */
import type { ArrivalModel, LaneLedger, Outage, ReadRegressions, ReplayDiff, RunStop } from '../model.js';
import type { RecordedFigures, TickReport } from '../metrics/LoadRecorder.js';
import type { SourceShare, SourceSpec, TrackedOutcome } from './RequestSource.js';

/** One thread's part of a run (plain data: it crosses to worker threads). */
export interface ThreadPlan {
  url: string;
  /** Open: the whole run's stages (the thread takes its share of the arrivals); closed: this thread's connections. */
  model: ArrivalModel;
  warmupMs: number;
  durationMs: number;
  /** This thread's in-flight cap and connections. */
  maxInFlight: number;
  connections: number;
  timeoutMs: number;
  source: SourceSpec;
  share: SourceShare;
  seed: number;
  tickMs: number;
  /** Every connection attempt failing for this long stops the run as 'target-unreachable'. */
  unreachableMs: number;
  /** The hard deadline, ms after the start of the warm-up. */
  deadlineMs: number;
}

export interface ThreadHooks {
  tick(report: TickReport): void;
  tracked(outcomes: TrackedOutcome[]): void;
  /** The thread stopped early (unreachable target, deadline), so the others can stop too. */
  stopping?(stop: ThreadStop): void;
}

export type ThreadStop = RunStop;

export interface ThreadResult {
  figures: RecordedFigures;
  stop: ThreadStop;
  /** ms from the start of measurement when sending stopped. */
  sendingEndedMs: number;
  /** Requests still queued or in flight when the run stopped without waiting for them (not counted anywhere else). */
  abandoned: number;
  /** The source's reads gone backwards (RequestSource.reads), when it watches any. */
  reads?: ReadRegressions;
  /** Where calls failed (OutageLog), ms from the start of measurement. */
  outages: { kept: Outage[]; count: number };
  /** What the source's transaction lanes did after failed sends (RequestSource.lanes). */
  lanes?: LaneLedger;
  /** A replay's diff against a second node (RequestSource.diff). */
  diff?: ReplayDiff;
}

export interface ThreadRun {
  result: Promise<ThreadResult>;
  /** Stops sending; in-flight requests get `graceMs` to end before they are abandoned. */
  stop(stop: ThreadStop, graceMs: number): void;
}

export interface PreparedThread {
  /** Starts the warm-up at `originMonoMs` (core/epochNow.ts's monotonicMs: the same instant in every thread). */
  start(originMonoMs: number): ThreadRun;
}
