/**
 * The live console progress of `chainrpc fuzz`, fed by the runner: `update(snapshot)` with the counts so far
 * (time, cases, cases/s, findings, liveness checks, each node's state), and `finding(f)` once per new finding.
 * On a terminal the status is one line rewritten in place, and each finding a line of its own that stays above
 * it; otherwise (CI, a pipe) a plain status line every `everyMs` of the run and whenever a node's state
 * changes, and each finding's line as it comes. What a node sent (URLs, messages) is shown with its control
 * characters as pictures, never sent to the terminal.
 */
import type { Finding, TargetSummary } from '../../fuzz/model.js';
import { findingHeadline, headlineLine, ruleLabel } from './findingText.js';
import { showControls } from '../shared/showControls.js';
import { CLEAR_LINE, fitLine } from '../shared/terminalLine.js';
import type { ProgressStream } from '../shared/terminalLine.js';
import { formatCount, formatRate } from '../load/formatLoad.js';

/** The runner's counts at one moment of a run. */
export interface FuzzProgressSnapshot {
  /** ms since the run began. */
  atMs: number;
  /** Cases sent so far, and the rate of the last second. */
  cases: number;
  casesPerSecond: number;
  /** Findings so far (signatures), and liveness checks sent so far. */
  findings: number;
  liveness: number;
  targets: readonly { url: string; state: TargetSummary['state'] }[];
}

export interface FuzzProgressOptions {
  stream: ProgressStream;
  /** Not a terminal: a status line every this many ms of the run (default 10 s), and when a node's state changes. */
  everyMs?: number;
}

/** A finding's message is one sentence; a hostile node can make it long: the console shows this much. */
const MAX_MESSAGE_CHARS = 300;

const plural = (n: number, one: string, many = `${one}s`): string => `${formatCount(n)} ${n === 1 ? one : many}`;

/** The status in one line: "12.0 s  2,140 cases  180 cases/s  3 findings  412 liveness checks  http://…: answering". */
export function fuzzStatusLine(s: FuzzProgressSnapshot): string {
  const targets = s.targets.map((t) => `${showControls(t.url)}: ${t.state}`).join(', ');
  return [`${(Math.max(0, s.atMs) / 1000).toFixed(1)} s`, plural(s.cases, 'case'), `${formatRate(s.casesPerSecond)} cases/s`, plural(s.findings, 'finding'), plural(s.liveness, 'liveness check'), targets]
    .filter((part) => part !== '')
    .join('  ');
}

/** A new finding in one line: "F3  liveness  chain_getBlock  http://…: the node stopped answering after this request (envelope/deep-nesting)". */
export function findingLine(f: Finding): string {
  const parts = [f.id, f.oracle, ...(f.method === undefined ? [] : [f.method]), `${f.url}: ${headlineLine(findingHeadline(f), MAX_MESSAGE_CHARS)} (${ruleLabel(f)})`];
  if (f.recheck === 'flaky') parts.push('[flaky]');
  return showControls(parts.join('  ').replace(/\r?\n/g, ' '));
}

/** The progress printer: fed by the runner, it writes to one stream (given alone, or with options). */
export class FuzzProgressLine {
  private readonly stream: ProgressStream;
  private readonly everyMs: number;
  private latest: FuzzProgressSnapshot | undefined;
  /** On a terminal: whether the status line is on screen (the cursor at its end). */
  private drawn = false;
  /** Not a terminal: when the last status line was printed, what the states were, and whether it showed the latest snapshot. */
  private printedAtMs: number | undefined;
  private printedStates = '';
  private current = false;

  constructor(target: ProgressStream | FuzzProgressOptions) {
    const options: FuzzProgressOptions = 'stream' in target ? target : { stream: target };
    this.stream = options.stream;
    this.everyMs = options.everyMs ?? 10_000;
  }

  private get tty(): boolean {
    return this.stream.isTTY === true;
  }

  private redraw(): void {
    if (this.latest === undefined) return;
    this.stream.write(`${CLEAR_LINE}${fitLine(fuzzStatusLine(this.latest), this.stream.columns)}`);
    this.drawn = true;
  }

  /** The counts now: redrawn in place on a terminal, printed when due otherwise. */
  update(snapshot: FuzzProgressSnapshot): void {
    this.latest = snapshot;
    if (this.tty) {
      this.redraw();
      return;
    }
    const states = snapshot.targets.map((t) => `${t.url} ${t.state}`).join('\n');
    const due = this.printedAtMs === undefined || snapshot.atMs >= this.printedAtMs + this.everyMs || states !== this.printedStates;
    this.current = due;
    if (!due) return;
    this.stream.write(`${fuzzStatusLine(snapshot)}\n`);
    this.printedAtMs = snapshot.atMs;
    this.printedStates = states;
  }

  /** A new finding: a line of its own (above the status line on a terminal, which is drawn again below it). */
  finding(f: Finding): void {
    const line = `finding ${findingLine(f)}`;
    if (this.tty) {
      this.stream.write(`${this.drawn ? CLEAR_LINE : ''}${line}\n`);
      this.drawn = false;
      this.redraw();
      return;
    }
    this.stream.write(`${line}\n`);
  }

  /** The run is over: the last status stays (printed once more if it was not), and the output ends with a newline. */
  done(): void {
    if (this.tty) {
      if (this.drawn) this.stream.write('\n');
      this.drawn = false;
      return;
    }
    if (this.latest !== undefined && !this.current) this.stream.write(`${fuzzStatusLine(this.latest)}\n`);
    this.current = true;
  }
}
