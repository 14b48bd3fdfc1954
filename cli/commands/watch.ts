/**
 * `chainrpc watch`: the nodes' health with no load (load/health/watchNodes.ts): their heads followed, their
 * processes read, live on the terminal, then the same health section a load report has, in its own report
 * folder. docs/load.md, "Watching without load".
 */
import { CliError, EXIT } from '../CliError.js';
import { CommandLine } from '../CommandLine.js';
import type { Command } from '../Command.js';
import { baseUrls, pathHint } from '../nodeUrls.js';
import { recordedCommand, relativeOrAbsolute } from './commandText.js';
import { ALONE_NOTE, HEALTH_HELP, HEALTH_OPTIONS, healthOf, metricNamesOf, metricsUrlsOf, pidNotes, pidsOf } from './load/healthOptions.js';
import { interruptible } from './load/interrupt.js';
import { duration } from './load/scenarioOptions.js';
import { needUrls, TARGET, targetOptions, targetProfile, URL_RULE } from './load/target.js';
import { packageVersion } from '../../core/packageVersion.js';
import { watchNodes, type WatchSnapshot } from '../../load/health/watchNodes.js';
import { checkMetricsPage, lacksNote, MetricsPageError, missingNote } from '../../load/health/metricsSource.js';
import { parseDuration } from '../../load/scenario/parseDuration.js';
import { formatDuration } from '../../reports/shared/formatDuration.js';
import { checkReportRoot, DEFAULT_REPORT_DIR } from '../../reports/shared/reportFolder.js';
import { CLEAR_LINE, fitLine } from '../../reports/shared/terminalLine.js';
import { showControls } from '../../reports/shared/showControls.js';
import { silentNodes, watchHeadline, watchReport, WATCH_REPORT_KIND, writeWatchReports } from '../../reports/watch/writeWatchReports.js';

const HELP = `Usage: chainrpc watch --url <base-url> [--url <base-url> ...] [options]

Watches nodes without sending them any load: each node's head followed (head lag against the others and
--head-reference, stalls, heights gone backwards, head-lag drift) and, with --pid or --metrics-url, its
process read (CPU, memory and its trend, open files). A line per second shows each node's height, how far
behind it is and its process; at the end (--duration, or Ctrl-C) the reports (report.json, report.html,
summary.md) hold the same health section a load report has. Beside a distributed k6 run, whose instances
cannot see the nodes, or on a live network. Nothing is judged: no exit code for what the nodes did.

${URL_RULE}

Options:
${targetOptions('a node to watch (repeatable)')}
${HEALTH_HELP}
  --duration <d>           how long to watch: 30s, 10m, 120m (default: until Ctrl-C)
  --report-dir <dir>       where reports go: a new <dir>/watch-<time> (default ${DEFAULT_REPORT_DIR});
                           <dir>/latest and <dir>/latest-watch point at it
  -h, --help

Exit codes: 0 watched (for its duration, or until Ctrl-C: the report of what was seen is written); 2 usage
or configuration error; 3 no node answered a single head read (refused, timed out, not JSON-RPC: the
report says why; a node among others that never answered is named in the last line); 4 internal error
(a bug in chainrpc).`;

const OPTIONS = {
  ...TARGET,
  ...HEALTH_OPTIONS,
  duration: { kind: 'text', value: '<d>', check: duration },
  'report-dir': { kind: 'text', value: '<dir>' },
} as const;


const line = new CommandLine('watch', OPTIONS);

/** One status line: each node's height, how far behind, and its process. */
export function watchStatusLine(s: WatchSnapshot): string {
  const nodes = s.nodes.map((n) => {
    const head = n.height === null ? 'no height yet' : `height ${n.height}${n.behind === null || n.behind === 0 ? '' : ` (${n.behind} behind)`}`;
    const failed = n.failed > 0 ? `, ${n.failed} failed reads` : '';
    const process = n.rssBytes === undefined ? '' : `, CPU ${Math.round(n.cpuPercent ?? 0)}%, RSS ${(n.rssBytes / 1_048_576).toFixed(1)} MiB`;
    return `${showControls(n.url)}: ${head}${failed}${process}`;
  });
  return [`${(s.atMs / 1000).toFixed(0)} s`, ...nodes].join('  ');
}

export const watch: Command = {
  name: 'watch',
  summary: 'Watch nodes without load: head lag, stalls, heights gone backwards, CPU and memory',
  help: HELP,
  commandLines: [line],
  async run(argv) {
    const command = 'watch';
    const { values, positionals } = line.parse(argv);
    if (positionals.length > 0) throw new CliError(`${command}: unexpected argument "${positionals[0] ?? ''}" (see chainrpc watch --help)`);
    needUrls(command, values.url);
    const profile = await targetProfile(command, values);
    const urls = baseUrls(command, values.url, profile.rpcPath);
    const head = healthOf(command, values, profile.rpcPath);
    const pids = pidsOf(command, values.pid, urls) ?? [];
    const metricsUrls = metricsUrlsOf(command, values['metrics-url'], values.pid, urls);
    const metricNames = metricNamesOf(command, values.metric, metricsUrls);
    if (head === null && pids.length + metricsUrls.length === 0) throw new CliError(`${command}: nothing to watch: --head-hz 0 follows no head, and no --pid or --metrics-url reads a process`);
    const reportDir = values['report-dir'] ?? DEFAULT_REPORT_DIR;
    checkReportRoot(reportDir, WATCH_REPORT_KIND);
    const durationMs = values.duration === undefined ? null : parseDuration(values.duration);
    const stop = interruptible('watch: stopping, then writing the report of what was seen');
    const tty = process.stderr.isTTY === true;
    console.error(`watch: ${urls.join(', ')}${head === null ? '' : `, heads read ${Math.round(1_000 / head.intervalMs)} times a second`}${durationMs === null ? ', until Ctrl-C' : `, for ${formatDuration(durationMs)}`}`);
    for (const note of pidNotes(command, urls, pids)) console.error(note);
    // Each --metrics-url read once before the watch, as a --pid is checked: a page that gives nothing is exit 2.
    for (const [i, page] of metricsUrls.entries()) {
      if (page === undefined || pids[i] !== undefined) continue;
      const checked = await checkMetricsPage(page, urls[i] ?? '', metricNames).catch((err: unknown) => {
        throw err instanceof MetricsPageError ? new CliError(`${command}: ${err.message}`, 'configuration', { details: err.details }) : err;
      });
      for (const note of [lacksNote(page, checked.lacks), missingNote(page, checked.missing)]) if (note !== undefined) console.error(`${command}: ${note}`);
    }
    if (head !== null && urls.length === 1 && head.reference === undefined) console.error(ALONE_NOTE(command));
    let lastPrinted = -Infinity;
    let result;
    try {
      result = await watchNodes({
        urls,
        profile,
        headIntervalMs: head?.intervalMs ?? null,
        reference: head?.reference,
        pids,
        metricsUrls,
        metricNames,
        durationMs,
        signal: stop.signal,
        say: (text) => process.stderr.write(`${tty ? CLEAR_LINE : ''}${command}: ${text}\n`),
        onTick: (s) => {
          // On a terminal one line rewritten every second; in a log one line every 10 s.
          if (tty) process.stderr.write(`${CLEAR_LINE}${fitLine(watchStatusLine(s), process.stderr.columns)}`);
          else if (s.atMs - lastPrinted >= 10_000) {
            lastPrinted = s.atMs;
            process.stderr.write(`${watchStatusLine(s)}\n`);
          }
        },
      });
    } finally {
      stop.dispose();
      if (tty) process.stderr.write(`${CLEAR_LINE}`);
    }
    const report = watchReport(result, { version: packageVersion(), command: recordedCommand(command, argv) });
    const written = await writeWatchReports(report, reportDir);
    console.log(watchHeadline(report));
    console.log(`reports: ${relativeOrAbsolute(written.dir)}`);
    console.log(`HTML report: ${written.files.html}`);
    // Nothing watched at all: every node's every head read failed (a wrong URL, a node not started).
    const silent = silentNodes(report);
    if (head !== null && silent.length === urls.length) {
      // Every node answered HTTP, but not a head read with a height (an error page, a 404 with a JSON-RPC error for
      // no call, a web page served with 200): the endpoint path is the likely fault, not the node's running (an
      // outside tester's wrong --rpc-path; another's web server answering 200 text/html was asked whether it ran).
      const pages = silent.every((n) => n.lastFailure !== undefined && /^HTTP \d{3}: /.test(n.lastFailure));
      const why = pages ? `${silent.map((n) => `${n.url} answered ${n.lastFailure ?? ''}`).join('; ')}. ${pathHint(urls[0] ?? '')}` : 'is each node running, at that address and port?';
      console.error(`${command}: no node answered a head read in ${formatDuration(result.durationMs)}: ${why}`);
      return EXIT.unreachable;
    }
    return EXIT.ok;
  },
};
