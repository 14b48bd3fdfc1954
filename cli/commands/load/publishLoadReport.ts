/**
 * The end of every load command that reports (`chainrpc load`, `load sweep`, `load merge`): the previous
 * report to compare with, then the comparison, the verdict, the four reports written, and the lines that say
 * where they are. One place, so every load report is made and judged alike.
 */
import { CliError } from '../../CliError.js';
import { packageVersion } from '../../../core/packageVersion.js';
import { compareBaseline, LoadBaselineError, readBaselineReport } from '../../../load/compareBaseline.js';
import { EXIT } from '../../../core/errors/exitCodes.js';
import { loadHeadline, loadVerdict } from '../../../load/loadVerdict.js';
import type { BaselineComparison, ChaosReport, LoadReport, ReplayReport, LoadRun, SweepResult } from '../../../load/model.js';
import { writeLoadReports } from '../../../reports/load/writeLoadReports.js';
import { DEFAULT_REPORT_DIR } from '../../../reports/shared/reportFolder.js';
import { recordedCommand, relativeOrAbsolute } from '../commandText.js';

/** The --baseline report, read before anything runs: a usage error when it is no load report or ran another scenario. */
/** --regression alone compares with nothing: said, not ignored (a sweep refuses both). */
export function regressionNeedsBaseline(command: string, baseline: string | undefined, regression: string | undefined): void {
  if (baseline === undefined && regression !== undefined) throw new CliError(`${command}: --regression sets the change allowed against a --baseline, and none is given: give --baseline <report.json> (a previous run's report)`);
}

export function baselineFor(command: string, path: string | undefined, scenario: string, regression?: string): LoadReport | undefined {
  regressionNeedsBaseline(command, path, regression);
  if (path === undefined) return undefined;
  let baseline: LoadReport;
  try {
    baseline = readBaselineReport(path);
  } catch (err) {
    if (err instanceof LoadBaselineError) throw CliError.within(command, err);
    throw err;
  }
  if (!baseline.runs.some((r) => r.scenario === scenario)) {
    throw new CliError(`${command}: --baseline ${path} has no run of scenario ${scenario} (it ran ${[...new Set(baseline.runs.map((r) => r.scenario))].join(', ')})`);
  }
  return baseline;
}

export interface LoadReportParts {
  command: string;
  argv: readonly string[];
  createdAt: Date;
  scenario: LoadReport['scenario'];
  profile: string;
  runs: LoadRun[];
  sweeps: SweepResult[];
  /** A run with faults: the schedule, the events, the chain's consistency. */
  chaos?: ChaosReport;
  /** A replay: what of the capture went, how, and what was left out. */
  replay?: ReplayReport;
  interrupted: boolean;
  baseline?: { path: string; report: LoadReport } | undefined;
  /** --regression, percent. */
  regression?: string | undefined;
  reportDir?: string | undefined;
}

/** Compares, judges, writes and announces the report; resolves with the verdict's exit code. */
export async function publishLoadReport(o: LoadReportParts): Promise<number> {
  let comparison: BaselineComparison | undefined;
  let baselineProblem: string | undefined;
  try {
    comparison = o.baseline === undefined ? undefined : compareBaseline(o.baseline.path, o.baseline.report, o.runs, o.regression === undefined ? undefined : Number(o.regression) / 100);
  } catch (err) {
    // The baseline matched nothing that ran (an interrupted run, other URLs): the report of what ran is still written.
    if (!(err instanceof LoadBaselineError)) throw err;
    baselineProblem = `${o.command}: ${err.message}`;
  }
  const report: LoadReport = {
    format: 'chainrpc-load/2',
    tool: { name: 'chainrpc', version: packageVersion() },
    createdAt: o.createdAt.toISOString(),
    command: recordedCommand(o.command, o.argv),
    scenario: o.scenario,
    profile: o.profile,
    runs: o.runs,
    sweeps: o.sweeps,
    ...(comparison === undefined ? {} : { baseline: comparison }),
    ...(o.chaos === undefined ? {} : { chaos: o.chaos }),
    ...(o.replay === undefined ? {} : { replay: o.replay }),
    verdict: loadVerdict(o.runs, o.sweeps, comparison, o.interrupted),
  };
  const written = await writeLoadReports(report, { dir: o.reportDir ?? DEFAULT_REPORT_DIR });
  process.stdout.write(`\nreports: ${relativeOrAbsolute(written.dir)}\nHTML report: ${written.files.html}\n${loadHeadline(report).line}\n`);
  if (baselineProblem !== undefined && report.verdict.exitCode !== EXIT.interrupted) throw new CliError(`${baselineProblem} (the report was written without the comparison)`);
  return report.verdict.exitCode;
}
