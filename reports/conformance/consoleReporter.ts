import { LEVELS } from '../../suites/model.js';
import type { CheckResult, Level, RunResult, Status } from '../../suites/model.js';
import { verdictHeadline } from '../../suites/runner/verdict.js';
import { formatDuration } from '../shared/formatDuration.js';
import { shortHint, shortMessage } from './shortText.js';

const SYMBOL: Record<Status, string> = { pass: 'PASS', fail: 'FAIL', error: 'ERROR', skip: 'SKIP' };
/** Groups of alike failures shown in full at the end; the reports hold the rest. */
const MAX_GROUPS = 40;
/** A reproduce command longer than this is printed as the `chainrpc replay` that sends it. */
const MAX_INLINE_COMMAND = 300;

export interface ConsoleReporterOptions {
  /** Where the text goes (the CLI passes process.stdout's write). */
  write: (text: string) => void;
  /** A terminal: one progress line that rewrites itself, failures printed as they come. Otherwise (CI, a pipe): a line per check. */
  live: boolean;
  /** The run's --url, in order. */
  targets: readonly string[];
  /** The clock, in ms (tests give their own). */
  now?: () => number;
}

/** Where the run's reports went, as the end of the output names them. */
export interface ReportsShown {
  /** The report folder, as the user should read it (relative where it lies below the working directory). */
  folder: string;
  /** The HTML report's absolute path. */
  html: string;
  /** ` --report <file>` for the replay commands, shell-quoted; '' where replay finds the report by itself. */
  replayReport: string;
}

/**
 * The console output of `chainrpc test`, as a reporter over the runner's events: `announce` before the
 * run, `onResult` (the runner's) for each result, `endProgress` when the run ends, `summarize` once the
 * reports are written. On a terminal it keeps a progress line and prints failures as they come; in CI it
 * prints a line per check. An error message already shown is not shown again (a node that is down errs
 * every check alike); at the end, results with the same status and message are one line with a count.
 */
export class ConsoleReporter {
  private readonly write: (text: string) => void;
  private readonly now: () => number;
  private readonly started: number;
  private readonly tally: Record<Status, number> = { pass: 0, fail: 0, error: 0, skip: 0 };
  private readonly shownErrors = new Set<string>();
  private lastLine = '';

  constructor(private readonly options: ConsoleReporterOptions) {
    this.write = options.write;
    this.now = options.now ?? Date.now;
    this.started = this.now();
  }

  private line(text: string): void {
    this.write(`${text}\n`);
  }

  /** " @ node" where the run has several targets: which node a result is about. */
  private where(r: CheckResult): string {
    return this.options.targets.length > 1 ? ` @ ${r.node}` : '';
  }

  /** What runs against what (the targets are base URLs: the CLI has cut an endpoint path a --url ended in). */
  announce(checks: number, profile: { name: string; rpcPath: string }, gate: Level): void {
    const { targets } = this.options;
    this.line(`chainrpc test: ${checks} checks against ${targets.join(', ')} (profile ${profile.name}, gate ${gate})`);
  }

  /** The runner's onResult. */
  readonly onResult = (r: CheckResult, done: number, total: number): void => {
    const { tally } = this;
    tally[r.status]++;
    const repeated = r.status === 'error' && this.shownErrors.has(r.evidence.message);
    if (r.status === 'error') this.shownErrors.add(r.evidence.message);
    if (this.options.live) {
      if (r.status === 'fail' || (r.status === 'error' && !repeated)) this.write(`\r\x1b[K${SYMBOL[r.status]} ${r.level} ${r.id}${this.where(r)}: ${shortMessage(r.evidence.message)}\n`);
      this.lastLine = `  ${done}/${total}  pass ${tally.pass}  fail ${tally.fail}  error ${tally.error}  skip ${tally.skip}  ${this.seconds()} s`;
      this.write(`\r\x1b[K${this.lastLine}`);
    } else if (!repeated) {
      this.line(`${SYMBOL[r.status].padEnd(6)}${r.level.padEnd(8)}${r.id}${this.where(r)}${r.status === 'pass' ? '' : `: ${shortMessage(r.evidence.message)}`}`);
    }
  };

  /** The run is over: the progress line goes. */
  endProgress(): void {
    if (this.options.live) this.write('\r\x1b[K');
  }

  /**
   * The counts, what failed and how to reproduce it, the hints, baseline entries to remove, where the reports
   * are, and the verdict with the run's duration (durationMs, the figure every report shows).
   */
  summarize(run: RunResult, reports: ReportsShown): void {
    this.line('');
    this.line(`${'level'.padEnd(9)}${'pass'.padStart(6)}${'fail'.padStart(6)}${'error'.padStart(7)}${'skip'.padStart(6)}`);
    for (const level of LEVELS) {
      const c = run.summary.counts[level];
      this.line(`${level.padEnd(9)}${String(c.pass).padStart(6)}${String(c.fail).padStart(6)}${String(c.error).padStart(7)}${String(c.skip).padStart(6)}`);
    }
    this.failures(run, reports.replayReport);
    if (run.hints !== undefined && run.hints.length > 0) {
      this.line('\nFirst, fix this:');
      for (const hint of run.hints) this.line(`  hint: ${shortHint(hint)}`);
    }
    const nowPassing = run.results.filter((r) => r.baseline?.state === 'now-passing');
    if (nowPassing.length > 0) this.line(`\nnow passing (remove from the baseline): ${[...new Set(nowPassing.map((r) => r.id))].join(', ')}`);
    this.line(`\nreports: ${reports.folder}\nHTML report: ${reports.html}`);
    // The run's own duration, as every report writes it (the progress line's clock also counts writing the reports).
    this.line(`${verdictHeadline(run).line}  (${formatDuration(run.durationMs)})`);
    if (this.lastLine === '' && this.options.live) this.line('');
  }

  private failures(run: RunResult, replayReport: string): void {
    const bad = run.results.filter((r) => r.status === 'fail' || r.status === 'error');
    if (bad.length === 0) return;
    const several = this.options.targets.length > 1;
    const groups = new Map<string, CheckResult[]>();
    for (const r of bad) {
      const key = `${r.status}\u0000${r.evidence.message}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    this.line(`\n${bad.length} check result(s) failed or had no verdict:`);
    for (const group of [...groups.values()].slice(0, MAX_GROUPS)) {
      const [r] = group;
      if (r === undefined) continue;
      if (group.length > 1) {
        const ids = group.map((g) => `${g.id}${this.where(g)}`);
        this.line(`  ${SYMBOL[r.status]} ×${group.length}: ${shortMessage(r.evidence.message)}\n      ${ids.slice(0, 6).join(', ')}${ids.length > 6 ? `, and ${ids.length - 6} more` : ''}`);
        continue;
      }
      const mark = r.baseline ? ` [baseline: ${r.baseline.state}]` : '';
      this.line(`  ${SYMBOL[r.status]} ${r.level} ${r.id}${this.where(r)}${mark}\n      ${shortMessage(r.evidence.message)}`);
      if (r.evidence.expected !== undefined) this.line(`      expected: ${r.evidence.expected}\n      actual:   ${r.evidence.actual ?? ''}`);
      if (r.reproduce) {
        const replay = `chainrpc replay ${r.id}${several ? ` --node ${r.node}` : ''}${replayReport}`;
        this.line(`      reproduce: ${r.reproduce.length > MAX_INLINE_COMMAND ? replay : r.reproduce}`);
      }
    }
    if (groups.size > MAX_GROUPS) this.line(`  ... and ${groups.size - MAX_GROUPS} more (see the reports)`);
  }

  private seconds(): string {
    return ((this.now() - this.started) / 1000).toFixed(1);
  }
}
