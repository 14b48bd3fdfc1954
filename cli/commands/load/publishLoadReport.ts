/**
 * The end of every load command that reports (`chainrpc load`, `load sweep`, `load merge`): the previous
 * report to compare with, then the comparison, the verdict, the four reports written, and the lines that say
 * where they are. One place, so every load report is made and judged alike.
 */
import { CliError } from '../../CliError.js';
import { packageVersion } from '../../../core/packageVersion.js';
import { baseUrlOf, DEFAULT_RPC_PATH } from '../../../core/client/baseUrl.js';
import { baselineProblems, compareWithBaseline, LoadBaselineError, readBaselineReport } from '../../../load/compareBaseline.js';
import { EXIT } from '../../../core/errors/exitCodes.js';
import { loadHeadline, loadVerdict } from '../../../load/loadVerdict.js';
import type { BaselineComparison, ChaosReport, LoadReport, ReplayReport, LoadRun, SweepResult } from '../../../load/model.js';
import { writeLoadReports } from '../../../reports/load/writeLoadReports.js';
import { DEFAULT_REPORT_DIR } from '../../../reports/shared/reportFolder.js';
import { recordedCommand, relativeOrAbsolute } from '../commandText.js';

/** --regression alone compares with nothing: said, not ignored (a sweep refuses both). */
export function regressionNeedsBaseline(command: string, baseline: string | undefined, regression: string | undefined): void {
  if (baseline === undefined && regression !== undefined) throw new CliError(`${command}: --regression sets the change allowed against a --baseline, and none is given: give --baseline <report.json> (a previous run's report)`);
}

/**
 * The --baseline report, read and checked before anything runs (exit 2): not a load report (checked whole against
 * its schema), no run of the scenario, a run of it its report did not trust, or measured under another load than
 * `scenario`'s definition asks for (compareBaseline.ts, baselineProblems).
 */
export function baselineFor(command: string, path: string | undefined, scenario: { name: string; definition: unknown }, regression?: string, target?: { url?: readonly string[]; 'rpc-path'?: string | undefined }): LoadReport | undefined {
  regressionNeedsBaseline(command, path, regression);
  if (path === undefined) return undefined;
  try {
    const baseline = readBaselineReport(path);
    // The nodes' base URLs as the runs will have them (matched by URL first), when given now (not with --devnet).
    const urls = target?.url?.map((u) => baseUrlOf(u, target['rpc-path'] ?? DEFAULT_RPC_PATH).base);
    baselineProblems(path, baseline, scenario, urls !== undefined && urls.length > 0 ? urls : undefined);
    return baseline;
  } catch (err) {
    if (err instanceof LoadBaselineError) throw CliError.within(command, err);
    throw err;
  }
}

/**
 * The comparison with the baseline, if any, and what stopped it: a usage problem (the baseline matched nothing that
 * ran, another load) or anything else (a bug), kept to be raised once the report of what ran is written.
 */
function compared(o: LoadReportParts): { comparison?: BaselineComparison; notes: string[]; problem?: string; crash?: Error } {
  if (o.baseline === undefined) return { notes: [] };
  try {
    return compareWithBaseline(o.baseline.path, o.baseline.report, o.runs, o.regression === undefined ? undefined : Number(o.regression) / 100);
  } catch (err) {
    if (err instanceof LoadBaselineError) return { notes: [], problem: `${o.command}: ${err.message}` };
    // Never at the cost of the measured run: its report is written first (an outside tester's baseline without
    // figures once crashed the comparison after a whole run, and no report was written).
    return { notes: [], crash: err instanceof Error ? err : new Error(String(err)) };
  }
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
  const { comparison, notes, problem: baselineProblem, crash } = compared(o);
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
  // How runs were paired, and figures left uncompared: said beside the verdict, not left for the reader to infer.
  for (const note of notes) process.stdout.write(`${o.command}: --baseline: ${note}\n`);
  process.stdout.write(`\nreports: ${relativeOrAbsolute(written.dir)}\nHTML report: ${written.files.html}\n${loadHeadline(report).line}\n`);
  if (crash !== undefined) {
    process.stderr.write(`${o.command}: the comparison with --baseline failed; the report was written without it\n`);
    throw crash;
  }
  if (baselineProblem !== undefined && report.verdict.exitCode !== EXIT.interrupted) throw new CliError(`${baselineProblem} (the report was written without the comparison)`);
  return report.verdict.exitCode;
}
