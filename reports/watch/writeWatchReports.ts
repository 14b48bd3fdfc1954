/**
 * The reports of `chainrpc watch` (load/health/watchNodes.ts): report.json (format `chainrpc-watch/1`,
 * reports/watch/watch-report.schema.json), summary.md and report.html, with the same health table, rows and
 * charts as a load report's "The node's health" section (reports/load/healthText.ts, loadCharts.ts), written
 * into a new `<report-dir>/watch-<start time>/` beside the load, fuzz and conformance runs, with
 * `<report-dir>/latest` and `<report-dir>/latest-watch` pointed at it.
 */
import type { WatchResult } from '../../load/health/watchNodes.js';
import { escapeHtml as h } from '../shared/escapeHtml.js';
import { formatDuration } from '../shared/formatDuration.js';
import { htmlPage, metaListHtml } from '../shared/htmlPage.js';
import { renderJsonReport } from '../shared/jsonReport.js';
import { markdownText } from '../shared/markdownText.js';
import { DEFAULT_REPORT_DIR, publishReportFolder, REPORT_FILE_NAMES } from '../shared/reportFolder.js';
import type { ReportFiles, WrittenFolder } from '../shared/reportFolder.js';
import { headLagChart, resourcesChart } from '../load/loadCharts.js';
import { LOAD_REPORT_CSS } from '../load/loadHtmlAssets.js';
import { healthTable } from '../load/renderLoadMarkdown.js';
import { healthHtml } from '../load/runSectionHtml.js';
import { formatMs } from '../load/formatLoad.js';

export type WatchReportKind = 'json' | 'html' | 'markdown';

/** The kind a watch publishes as: its own link, `<dir>/latest-watch`, beside `latest`. */
export const WATCH_REPORT_KIND = 'watch';
export const WATCH_REPORT_FORMAT = 'chainrpc-watch/1';

export interface WatchReport extends WatchResult {
  format: typeof WATCH_REPORT_FORMAT;
  tool: { name: 'chainrpc'; version: string };
  /** The command as it ran. */
  command: string;
}

export interface WatchReportOptions {
  version: string;
  command: string;
}

export const watchReport = (result: WatchResult, o: WatchReportOptions): WatchReport => ({ format: WATCH_REPORT_FORMAT, tool: { name: 'chainrpc', version: o.version }, command: o.command, ...result });

/** The headline: what was watched, for how long, and the worst a node showed. */
export function watchHeadline(report: WatchResult): string {
  const stalls = report.nodes.reduce((n, x) => n + (x.health.head?.stalls.length ?? 0), 0);
  const back = report.nodes.reduce((n, x) => n + (x.health.head?.regressionCount ?? 0), 0);
  const worst = Math.max(-1, ...report.nodes.map((x) => x.health.head?.lagMs?.p99 ?? -1));
  const how = report.stop === 'interrupted' ? ' (stopped)' : '';
  const lag = worst < 0 ? 'no new height seen' : `head lag p99 at most ${formatMs(worst)}`;
  // One head alone (one node, no reference): nothing to measure lag or stalls against; said, not shown as 0.
  const alone = report.nodes.some((x) => x.health.head?.alone === true);
  const compared = alone ? 'head lag and stalls not measured (one node\'s head alone: give a second --url or --head-reference)' : `${lag}, ${stalls} stall${stalls === 1 ? '' : 's'}`;
  const silent = silentNodes(report);
  // A node that never answered has no head to speak of: said first, with why its reads failed.
  const never = silent.map((n) => `${n.url} never answered (${n.failed} head read${n.failed === 1 ? '' : 's'} failed${n.lastFailure === undefined ? '' : `: ${n.lastFailure}`})`).join('; ');
  const watched = `WATCHED ${report.nodes.length} node${report.nodes.length === 1 ? '' : 's'} for ${formatDuration(report.durationMs)}${how}`;
  // No head answered at all: nothing was seen of lags or heights, so nothing is said of them.
  if (silent.length === report.nodes.length) return `${watched}: ${never}`;
  return `${watched}: ${never === '' ? '' : `${never}; `}${compared}, ${back} height${back === 1 ? '' : 's'} gone backwards`;
}

/** The watched nodes whose head was followed and never read: every read failed (refused, timed out, not JSON-RPC). */
export function silentNodes(report: WatchResult): { url: string; failed: number; lastFailure?: string }[] {
  return report.nodes.flatMap((n) => {
    const head = n.health.head;
    if (head === undefined || head.samples > 0 || head.failed === 0) return [];
    return [{ url: n.url, failed: head.failed, ...(head.lastFailure === undefined ? {} : { lastFailure: head.lastFailure }) }];
  });
}

export function renderWatchMarkdown(report: WatchReport): string {
  return [
    '## chainrpc watch',
    '',
    `**${markdownText(watchHeadline(report))}**`,
    '',
    `Command: \`${report.command.replace(/\u0060/g, "'")}\` · ${markdownText(report.startedAt)} to ${markdownText(report.endedAt)} · chainrpc ${markdownText(report.tool.version)}`,
    '',
    ...healthTable(report.nodes),
  ].join('\n');
}

export function renderWatchHtml(report: WatchReport): string {
  const sections = report.nodes.map((n, i) => {
    const id = `node-${i + 1}`;
    const charts = `${n.health.head === undefined ? '' : headLagChart(`${id}-head-lag`, n)}${n.health.resources === undefined ? '' : resourcesChart(`${id}-resources`, n)}`;
    return [`<section class="run" id="${id}">`, `<h2>${h(n.url)}</h2>`, healthHtml(n) || '<p class="note">Nothing was followed or read of this node.</p>', charts === '' ? '' : `<div class="charts">${charts}</div>`, '</section>'].join('\n');
  });
  return htmlPage({
    title: `chainrpc watch: ${watchHeadline(report)}`,
    styles: LOAD_REPORT_CSS,
    script: '',
    body: [
      '<header>',
      '<h1>chainrpc watch report</h1>',
      `<p class="verdict" data-testid="verdict">${h(watchHeadline(report))}</p>`,
      metaListHtml([
        ['Command', report.command],
        [report.nodes.length === 1 ? 'Node' : 'Nodes', report.nodes.map((n) => n.url).join(', ')],
        ['Watched', `${formatDuration(report.durationMs)}, from ${report.startedAt}${report.stop === 'interrupted' ? ' (stopped before its duration)' : ''}`],
        ['Tool', `${report.tool.name} ${report.tool.version}`],
      ]),
      '</header>',
      '<main>',
      sections.join('\n'),
      '</main>',
      '<footer class="note">No load was sent: the heads were followed and the processes read as during a load run (docs/load.md, "The node\'s health"; chainrpc watch).</footer>',
    ],
  });
}

export function renderWatchReports(report: WatchReport): ReportFiles<WatchReportKind> {
  return {
    json: { name: REPORT_FILE_NAMES.json, text: renderJsonReport(report) },
    html: { name: REPORT_FILE_NAMES.html, text: renderWatchHtml(report) },
    markdown: { name: REPORT_FILE_NAMES.markdown, text: `${renderWatchMarkdown(report)}\n` },
  };
}

/** Writes the reports into `<dir>/watch-<started at>/` and points `latest` and `latest-watch` at it. */
export async function writeWatchReports(report: WatchReport, dir: string = DEFAULT_REPORT_DIR): Promise<WrittenFolder<WatchReportKind>> {
  return await publishReportFolder(dir, `watch-${report.startedAt}`, renderWatchReports(report), WATCH_REPORT_KIND);
}
