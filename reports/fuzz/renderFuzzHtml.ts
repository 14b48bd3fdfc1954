/**
 * The HTML report of a fuzz run (report.html): one self-contained page (inline CSS, charts as inline SVG, no
 * script, nothing fetched), readable offline, from a CI artifact or file://. It leads with the headline and the
 * run's parameters, then the standing findings first (findingHtml.ts: each with its minimal case, answer,
 * replay command and curl), the flaky sightings in a section of their own after them, with the same details
 * (seen once, not again when re-sent: said, never counted, as fuzz/fuzzVerdict.ts decides), the cases per second and the findings over time, the nodes, the cases by
 * family, the most costly cases (--seek slow), and the tool errors apart.
 *
 * Everything a node or a case holds is escaped (escapeHtml); the page's Content-Security-Policy allows only its
 * own stylesheet, by hash, so even markup that slipped through could neither run nor load anything.
 */
import { CASE_FAMILIES } from '../../fuzz/model.js';
import type { FuzzRun } from '../../fuzz/model.js';
import { escapeHtml as h } from '../shared/escapeHtml.js';
import { formatDuration } from '../shared/formatDuration.js';
import { htmlPage, metaListHtml } from '../shared/htmlPage.js';
import { htmlTable, num, text } from '../shared/htmlTable.js';
import { formatCount } from '../load/formatLoad.js';
import { caseHtml, findingHtml } from './findingHtml.js';
import { findingsInOrder, flakyAside, formatTime, nodeFindings, reportOptions } from './findingText.js';
import type { FuzzReportOptions } from './findingText.js';
import { casesChart, findingsChart } from './fuzzCharts.js';
import { FUZZ_REPORT_CSS } from './fuzzHtmlAssets.js';
import { fuzzHeadline, headlineClass, uncountedPhrase, stopPhrase, unreachableNote, unsentByAllNote, unsentNote } from './fuzzHeadline.js';

/** The heading of the flaky sightings, after the findings. */
const FLAKY_HEADING = 'Flaky sightings (seen once, not when sent again; not counted)';

const STOP_WORDS: Readonly<Record<FuzzRun['stop'], string>> = {
  cases: 'the cases asked for were sent',
  duration: 'the time asked for ran out',
  findings: 'the findings asked for (--max-findings) were found',
  'all-targets-stopped': 'every node stopped answering (or never answered)',
  interrupted: 'interrupted',
};

function metaHtml(run: FuzzRun, command: string | undefined): string {
  const o = run.options;
  const asked = [o.cases === null ? undefined : `${formatCount(o.cases)} cases`, o.durationMs === null ? undefined : formatDuration(o.durationMs)].filter((x) => x !== undefined);
  const items: [string, string][] = [
    ...(command === undefined ? [] : [['Command', command] as [string, string]]),
    [run.targets.length === 1 ? 'Node' : 'Nodes', run.targets.length === 0 ? 'none' : run.targets.map((t) => t.url).join(', ')],
    ['Seed', String(run.seed)],
    ['Cases', `${formatCount(run.cases)} in ${formatDuration(run.durationMs)}${asked.length === 0 ? '' : ` (asked: ${asked.join(' or ')})`}`],
    ['Stopped', STOP_WORDS[run.stop]],
    ['Only', o.only.length === 0 ? 'everything' : o.only.join(', ')],
    ['Limits', `at most ${formatCount(o.maxRate)} cases/s per node, bodies up to ${formatCount(o.maxBodyBytes)} bytes${o.seek === 'slow' ? ', seeking slow cases' : ''}`],
    ['Profile', o.profileFile === undefined ? o.profile : `${o.profile} (${o.profileFile})`],
    ...(o.unobserved === undefined || o.unobserved.length === 0 ? [] : [['Not compared', `not observed by detect (left to the reference defaults): ${o.unobserved.join(', ')}`] as [string, string]]),
    ['Tool', `${run.tool.name} ${run.tool.version}`],
    ['Started', run.startedAt],
  ];
  return metaListHtml(items);
}

function findingsHtml(run: FuzzRun, options: FuzzReportOptions): string[] {
  const { standing, flaky } = findingsInOrder(run);
  const out: string[] = ['<section id="findings" data-testid="findings">'];
  if (standing.length === 0) {
    const aside = flaky.length === 0 ? '' : ` (${uncountedPhrase(flaky).join('; ')}: below)`;
    out.push('<h2>Findings</h2>', `<p data-testid="no-finding">${h(`No finding in ${formatCount(run.cases)} cases${aside}.`)}</p>`);
  } else {
    out.push(`<h2>Findings (${standing.length})</h2>`, ...standing.map((f) => findingHtml(f, options)));
  }
  out.push('</section>');
  if (flaky.length > 0) {
    out.push(
      '<section id="flaky" data-testid="flaky">',
      `<h2>${h(FLAKY_HEADING)}</h2>`,
      `<p class="note">${h(`${formatCount(flaky.length)} ${flaky.length === 1 ? 'sighting' : 'sightings'}, each seen once, then not again when its case was re-sent: a race, a load effect, or a node that changed in between. Not findings: the verdict and the exit code do not count them.`)}</p>`,
      ...flaky.map((f) => findingHtml(f, options)),
      '</section>',
    );
  }
  return out;
}

/** Whether the run has anything over time: a timeline point, or cases sent (a run shorter than a second has no point). */
const hasTimeline = (run: FuzzRun): boolean => run.timeline.length > 0 || run.cases > 0;

function timelineHtml(run: FuzzRun): string {
  if (!hasTimeline(run)) return '';
  return ['<section id="timeline" data-testid="timeline">', '<h2>Over time</h2>', `<div class="charts">${casesChart(run)}${findingsChart(run)}</div>`, '</section>'].join('\n');
}

function targetsHtml(run: FuzzRun): string {
  const state = (s: string): string => `<span class="${s === 'answering' ? 'ok' : 'bad'}">${h(s)}</span>`;
  const table = htmlTable(
    'targets',
    [text('Node'), text('State'), num('Cases'), num('Findings'), num('Median call'), num('Slow bound'), num('Liveness checks')],
    run.targets.map((t) => {
      const found = nodeFindings(run, t.url);
      const findings = num(`${formatCount(found.standing)}${flakyAside(found.flaky)}`, found.standing > 0 ? 'bad' : undefined);
      const cases = unsentNote(run, t) === undefined ? formatCount(t.cases) : `${formatCount(t.cases)} of ${formatCount(run.cases)}`;
      return [{ html: `<code>${h(t.url)}</code>` }, { html: state(t.state) }, num(cases), findings, num(formatTime(t.medianMs)), num(formatTime(t.slowBoundMs)), num(formatCount(t.livenessChecks))];
    }),
  );
  const families = htmlTable('families', [text('Family'), num('Cases')], [...CASE_FAMILIES.map((f) => [{ html: `<code>${h(f)}</code>` }, num(formatCount(run.byFamily[f]))]), [text('all'), num(formatCount(run.cases))]]);
  // A node's count is of the cases sent to it, the run's of the cases made: where they differ, said why.
  const unsent = run.targets.flatMap((t) => {
    const note = unsentNote(run, t);
    return note === undefined ? [] : [`<p class="note" data-testid="unsent">${run.targets.length === 1 ? '' : `<code>${h(t.url)}</code>: `}${h(`Cases: ${note}.`)}</p>`];
  });
  const byAll = unsentByAllNote(run);
  const familiesNote = byAll === undefined ? '' : `<p class="note" data-testid="unsent-all">${h(`All: ${byAll}.`)}</p>`;
  return ['<section id="nodes" data-testid="nodes">', '<h2>Nodes</h2>', table, ...unsent, '<h2 id="families">Cases by family</h2>', families, familiesNote, '</section>'].filter((l) => l !== '').join('\n');
}

function costlyHtml(run: FuzzRun): string {
  const costly = run.costly ?? [];
  if (costly.length === 0) return '';
  const items = costly.map(
    (c, i) =>
      `<details class="costly" data-testid="costly-${i + 1}"><summary>${h(`${c.costRatio.toFixed(1)}x`)} · ${h(c.case.title)} · ${h(formatTime(c.case.answer.ms))}</summary>${caseHtml(c.case, `costly-body-${i + 1}`)}<pre class="command">${h(c.case.curl)}</pre></details>`,
  );
  return [
    '<section id="costly" data-testid="costly">',
    `<h2>The most costly cases (${costly.length})</h2>`,
    '<p class="note">Answer time per request byte, against the median call\'s: where a node spends far more than the request is worth.</p>',
    ...items,
    '</section>',
  ].join('\n');
}

function toolErrorsHtml(run: FuzzRun): string {
  if (run.toolErrors.length === 0) return '';
  const items = run.toolErrors.map((e) => `<li>${e.url === undefined ? '' : `<code>${h(e.url)}</code>: `}${h(e.message)} <span class="note">at ${h(formatDuration(e.atMs))}</span></li>`);
  return [
    '<section id="tool-errors" data-testid="tool-errors">',
    `<h2>Tool errors (${run.toolErrors.length})</h2>`,
    '<p class="note">What chainrpc could not do. None is counted against a node.</p>',
    `<ul class="tool-errors">${items.join('')}</ul>`,
    '</section>',
  ].join('\n');
}

function tocHtml(run: FuzzRun): string {
  const { standing, flaky } = findingsInOrder(run);
  const links: [string, string][] = [
    ['findings', standing.length > 0 ? `Findings (${standing.length})` : 'Findings'],
    ...(flaky.length > 0 ? [['flaky', `Flaky sightings (${flaky.length})`] as [string, string]] : []),
    ...(hasTimeline(run) ? [['timeline', 'Over time'] as [string, string]] : []),
    ['nodes', 'Nodes'],
    ['families', 'Cases by family'],
    ...((run.costly ?? []).length > 0 ? [['costly', 'Costly cases'] as [string, string]] : []),
    ...(run.toolErrors.length > 0 ? [['tool-errors', `Tool errors (${run.toolErrors.length})`] as [string, string]] : []),
  ];
  return `<nav class="toc" aria-label="Sections">${links.map(([id, label]) => `<a href="#${id}">${h(label)}</a>`).join('')}</nav>`;
}

/** The HTML report of a run; `options.reportPath` is the report.json the replay commands name. */
export function renderFuzzHtml(run: FuzzRun, given: FuzzReportOptions = {}): string {
  const options = reportOptions(run, given);
  const headline = fuzzHeadline(run);
  const stop = stopPhrase(run);
  const unreachable = unreachableNote(run);
  return htmlPage({
    title: `chainrpc fuzz: ${headline.line}`,
    styles: FUZZ_REPORT_CSS,
    script: '',
    body: [
      '<header>',
      '<h1>chainrpc fuzz report</h1>',
      `<p class="verdict verdict-${headlineClass(headline.word)}" data-testid="verdict">${h(headline.line)}</p>`,
      stop === undefined ? '' : `<p class="warn" data-testid="stop">${h(`The run ended early: ${stop}.`)}</p>`,
      unreachable === undefined ? '' : `<p class="warn" data-testid="unreachable">${h(unreachable)}</p>`,
      metaHtml(run, options.command),
      '</header>',
      tocHtml(run),
      '<main>',
      ...findingsHtml(run, options),
      timelineHtml(run),
      targetsHtml(run),
      costlyHtml(run),
      toolErrorsHtml(run),
      '</main>',
      '<footer class="note">A finding is one signature (oracle, method, rule), shown with the smallest case found that still shows it. Replay sends that case again and judges the answer now; the curl sends the same bytes without chainrpc. Bodies that are not UTF-8 are shown as hex; report.json keeps every body exactly (base64).</footer>',
    ].filter((line) => line !== ''),
  });
}
