/**
 * `chainrpc load merge <summary.json>...`: the summaries of the k6 instances of one chainrpc scenario
 * (load/k6/K6Summary.ts) added up into one run, judged, compared with a baseline and reported exactly as
 * `chainrpc load` reports its own runs. cli/commands/load/index.ts dispatches `load merge` here (MERGE_HELP,
 * mergeLine, mergeCommand).
 */
import { CliError } from '../../CliError.js';
import { CommandLine } from '../../CommandLine.js';
import { REGRESSION } from '../../commonOptions.js';
import { K6SummaryError, mergeK6, readK6Summary, type K6Merge } from '../../../load/k6/mergeK6Summaries.js';
import type { K6Summary } from '../../../load/k6/K6Summary.js';
import { LOAD_REPORT_KIND } from '../../../reports/load/writeLoadReports.js';
import { checkReportRoot, DEFAULT_REPORT_DIR } from '../../../reports/shared/reportFolder.js';
import { baselineFor, publishLoadReport, regressionNeedsBaseline } from './publishLoadReport.js';

export const MERGE_HELP = `Usage: chainrpc load merge <summary.json> [<summary.json> ...] [options]

Adds up the summaries that the k6 instances of one chainrpc scenario wrote (the handleSummary of a
script made by chainrpc load k6: one file per --execution-segment, or per k6-operator pod) into one
run, judges the scenario's thresholds on it, compares it with --baseline, and writes the same
reports as chainrpc load (report.json, report.html, summary.md, junit.xml), in a folder whose path
is printed.

The summaries must be of one scenario against one node, their segments together the whole test
(0:1/3, 1/3:2/3 and 2/3:1, each once); a whole run's summary (no segment) stands alone. Counts add
up exactly; latency percentiles are exact to the summaries' buckets (within 4.4%). A request k6
cut off at the end of the run, before any answer, counts as sent and failed (a transport failure).
k6 times each request from its write, not from a scheduled time (a replay: from its time), with no
service time apart, and reports no send lag, no result validation, no inclusion and no timeline:
thresholds on what only the Node engine measures (lag-p99, read-lag-p99, invalid, inclusion,
tti-, the node's health, faults) are left out, not judged, and named on stderr with why.
A run that was not the script's own (k6's scenarios replaced by --vus, --duration, --iterations
or --stages; a run stopped early; drops not counted apart with --no-thresholds) is untrusted.

Options:
  --report-dir <dir>       where reports go: a new <dir>/load-<time> (default dir ${DEFAULT_REPORT_DIR});
                           <dir>/latest and <dir>/latest-load point at it; a latest or latest-load
                           that is not chainrpc's link is refused (exit 2), nothing else is touched
  --baseline <report.json> a previous load report: a regression beyond the noise fails the run (99)
  --regression <pct>       the change allowed before noise is added (default 10)
  -h, --help

Exit codes: 0 every threshold kept (and no regression); 99 a threshold broken or a regression
beyond the noise; 1 the figures cannot be trusted (the instances did not run together, or k6 did
not run the script's schedule: the report says why); 2 usage
error, a file that is not a chainrpc k6 summary, or summaries that are not the parts of one test
(the message names the file, the field or the missing segment); 4 internal error (a bug in
chainrpc).`;

/** `load merge`'s options (cli/commands/load/index.ts lists it among its subcommands). */
export const mergeLine = new CommandLine(
  'load merge',
  {
    'report-dir': { kind: 'text', value: '<dir>' },
    baseline: { kind: 'text', value: '<report.json>' },
    regression: REGRESSION,
  },
  true,
);

/** Says on stderr which thresholds the merge left out and why, and what it counted that k6 did not. */
function tellLeftOut(command: string, merged: K6Merge): void {
  for (const n of merged.notJudged) process.stderr.write(`${command}: threshold "${n.threshold}" not judged: ${n.why}\n`);
  for (const note of merged.notes) process.stderr.write(`${command}: ${note}\n`);
}

/** Runs `chainrpc load merge` with the words after `merge`; resolves to the verdict's exit code. */
export async function mergeCommand(argv: string[]): Promise<number> {
  const command = 'load merge';
  const { values, positionals: files } = mergeLine.parse(argv);
  if (files.length === 0) throw new CliError(`${command}: give the summary files, one per k6 instance (what the handleSummary of a script made by chainrpc load k6 wrote)`);
  if (new Set(files).size !== files.length) throw new CliError(`${command}: the same file is given twice: ${files.find((f, i) => files.indexOf(f) !== i) ?? ''}`);
  regressionNeedsBaseline(command, values.baseline, values.regression);
  // A report folder whose `latest` is a user's file or folder is refused (exit 2), not replaced.
  checkReportRoot(values['report-dir'] ?? DEFAULT_REPORT_DIR, LOAD_REPORT_KIND);

  let summaries: K6Summary[];
  let merged: K6Merge;
  try {
    summaries = files.map((f) => readK6Summary(f));
    merged = mergeK6(summaries, files);
  } catch (err) {
    if (err instanceof K6SummaryError) throw CliError.within(command, err);
    throw err;
  }
  const { run } = merged;
  tellLeftOut(command, merged);
  const [first] = summaries as [K6Summary];
  const baseline = baselineFor(command, values.baseline, { name: run.scenario, definition: first.scenario.definition }, values.regression);
  const segments = summaries.map((s) => s.segment).filter((s) => s !== null);
  process.stdout.write(`${command}: ${run.scenario} against ${run.url}: ${summaries.length === 1 && segments.length === 0 ? 'one whole k6 run' : `${summaries.length} k6 instances (segments ${segments.join(', ')})`}\n`);
  return publishLoadReport({
    command,
    argv,
    createdAt: new Date(),
    scenario: { name: first.scenario.name, definition: first.scenario.definition },
    // The profile the script was made with (the summaries name it; none named: the reference profile).
    profile: first.profile?.name ?? 'reference',
    runs: [run],
    sweeps: [],
    // A replay's test carries the report's replay section (what of the capture went, how, what was left out).
    ...(first.replay === undefined ? {} : { replay: first.replay }),
    interrupted: false,
    baseline: baseline === undefined ? undefined : { path: values.baseline ?? '', report: baseline },
    regression: values.regression,
    reportDir: values['report-dir'],
  });
}
