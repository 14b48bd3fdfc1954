import type { LoadProgress } from '../../load/model.js';
import { showControls } from '../shared/showControls.js';
import { CLEAR_LINE, fitLine } from '../shared/terminalLine.js';
import type { ProgressStream } from '../shared/terminalLine.js';
import { formatCount, formatMicros, formatRate } from './formatLoad.js';

export type { ProgressStream } from '../shared/terminalLine.js';

export interface LoadProgressOptions {
  stream: ProgressStream;
  /** Not a terminal: a line per node every this many ms of the run (default 10 s), and one at each phase's start. */
  everyMs?: number;
}

export interface LoadProgressPrinter {
  /** A snapshot of one node's run (the engine sends one per tick). */
  update(snapshot: LoadProgress): void;
  /** The run is over: the last state of each node stays on screen, and the output ends with a newline. */
  done(): void;
}

const seconds = (ms: number): string => `${(Math.abs(ms) / 1000).toFixed(1)} s`;

/** When in the run, as people read it: "warm-up, 4.0 s to go", "12.0 s / 60.0 s", "drain after 60.0 s". */
function when(p: LoadProgress): string {
  if (p.phase === 'warmup') return `warm-up, ${seconds(Math.min(0, p.elapsedMs))} to go`;
  if (p.phase === 'drain') return `drain after ${seconds(p.durationMs)}`;
  return `${seconds(Math.max(0, p.elapsedMs))} / ${seconds(p.durationMs)}`;
}

/**
 * One node's progress on one line: phase and time, achieved against target rate, p50 and p99 of the last
 * tick, calls ok and failed, dropped and in flight since measurement began, and included and pending
 * transactions for signed-transaction load. `url` is shown first when several nodes run at once.
 */
export function progressLine(p: LoadProgress, withUrl: boolean): string {
  const rate = p.targetRate === null ? `${formatRate(p.achievedRate)} req/s` : `${formatRate(p.achievedRate)}/${formatRate(p.targetRate)} req/s`;
  const parts = [
    when(p),
    rate,
    `p50 ${formatMicros(p.p50Us)}`,
    `p99 ${formatMicros(p.p99Us)}`,
    `ok ${formatCount(p.okCalls)}`,
    `failed ${formatCount(p.failedCalls)}`,
    `dropped ${formatCount(p.dropped)}`,
    `in flight ${formatCount(p.inFlight)}`,
  ];
  if (p.included !== undefined) parts.push(`included ${formatCount(p.included)}`);
  if (p.pending !== undefined) parts.push(`pending ${formatCount(p.pending)}`);
  // The URL is the user's text: control characters shown as pictures, never sent to the terminal.
  return `${withUrl ? `${showControls(p.url)}  ` : ''}${parts.join('  ')}`;
}

/**
 * The live console progress of `chainrpc load`, from the engine's LoadProgress snapshots. On a terminal
 * each node has one line, rewritten in place at every snapshot; in CI or a pipe (no TTY) a plain line per
 * node at the start of each phase and every `everyMs` of the run, timed by the snapshots themselves. done()
 * leaves the last state and ends the output with a newline.
 */
export function loadProgress(options: LoadProgressOptions): LoadProgressPrinter {
  const { stream } = options;
  const everyMs = options.everyMs ?? 10_000;
  const latest = new Map<string, LoadProgress>();
  /** Not a terminal: what was printed last for each node (its phase and time), and whether its latest snapshot was. */
  const printed = new Map<string, { phase: LoadProgress['phase']; elapsedMs: number; current: boolean }>();
  let drawn = 0;

  const redraw = (): void => {
    const withUrl = latest.size > 1;
    const lines = [...latest.values()].map((p) => `${CLEAR_LINE}${fitLine(progressLine(p, withUrl), stream.columns)}`);
    // Back to the first of the lines drawn last time, then every line again.
    stream.write(`${drawn > 1 ? `\x1b[${drawn - 1}A` : ''}${lines.join('\n')}`);
    drawn = lines.length;
  };

  return {
    update(snapshot) {
      const isNew = !latest.has(snapshot.url);
      latest.set(snapshot.url, snapshot);
      if (stream.isTTY === true) {
        // A node that joins after the first adds a line below the others.
        if (isNew && drawn > 0) stream.write('\n');
        if (isNew && drawn > 0) drawn++;
        redraw();
        return;
      }
      const last = printed.get(snapshot.url);
      const due = last === undefined || last.phase !== snapshot.phase || snapshot.elapsedMs >= last.elapsedMs + everyMs;
      if (due) {
        stream.write(`${progressLine(snapshot, true)}\n`);
        printed.set(snapshot.url, { phase: snapshot.phase, elapsedMs: snapshot.elapsedMs, current: true });
      } else if (last) {
        last.current = false;
      }
    },
    done() {
      if (stream.isTTY === true) {
        if (drawn > 0) stream.write('\n');
        drawn = 0;
        return;
      }
      // The final state of each node, unless its last line already showed it.
      for (const [url, p] of latest) if (printed.get(url)?.current !== true) stream.write(`${progressLine(p, true)}\n`);
      printed.clear();
      latest.clear();
    },
  };
}
