import { LEVELS } from '../../suites/model.js';
import type { CheckResult, RunResult } from '../../suites/model.js';
import { escapeHtml as h } from '../shared/escapeHtml.js';
import { formatDuration } from '../shared/formatDuration.js';
import { htmlPage, metaListHtml } from '../shared/htmlPage.js';
import { isExpectedFailure, isGating, levelGates, verdictHeadline } from '../../suites/runner/verdict.js';
import { baselineMark, evidenceParts } from './evidenceHtml.js';
import { gridColumnsCss, gridMainHtml } from './gridHtml.js';
import { GRID_CSS, GRID_JS, REPORT_CSS, REPORT_JS } from './htmlAssets.js';
import { CATEGORY_ORDER, networkCulprits, nodeGrid, STATUSES, targetNames } from './nodeGrid.js';
import { shortHint } from './shortText.js';


function checkHtml(result: CheckResult, run: RunResult): string {
  const gating = isGating(result, run.gate);
  // Failures that matter open by default; a failure the baseline expects is known, so it stays closed.
  const open = (result.status === 'fail' || result.status === 'error') && !isExpectedFailure(result);
  const belowGate = open && !gating ? ' <span class="mark">does not gate</span>' : '';
  // A network check's failure names the node it came from, where its message does not.
  const culprits = networkCulprits(result, targetNames(run.targets));
  const on = culprits.length === 0 ? '' : ` <span class="cnode" data-testid="cell-node" title="${h(culprits.map((c) => c.url).join(', '))}">(on ${h(culprits.map((c) => c.label).join(', '))})</span>`;
  const summary =
    `<summary><span class="badge ${result.status}">${result.status}</span>` +
    `<span class="level">${result.level}</span><code class="id">${h(result.id)}</code>` +
    `<span class="title">${h(result.title)}${baselineMark(result)}${belowGate}</span>` +
    `<span class="node">${h(result.node)}${on}</span><span class="spec">${h(result.spec)}</span></summary>`;
  const body = evidenceParts(result);
  return (
    `<details class="check s-${result.status}" data-testid="check" data-status="${result.status}" data-id="${h(result.id)}" data-node="${h(result.node)}"${open ? ' open' : ''}>` +
    `${summary}<div class="evidence">${body.join('')}</div></details>`
  );
}

function countsHtml(run: RunResult): string {
  const head = `<tr><th>Level</th>${STATUSES.map((s) => `<th>${s}</th>`).join('')}<th>total</th></tr>`;
  const rows = LEVELS.map((level) => {
    const row = run.summary.counts[level];
    const cells = STATUSES.map((s) => `<td class="${s}${row[s] > 0 ? ' nonzero' : ''}" data-testid="count-${level}-${s}">${row[s]}</td>`);
    const total = STATUSES.reduce((n, s) => n + row[s], 0);
    return `<tr><td>${level}${levelGates(level, run.gate) ? ' <span class="note">(gates)</span>' : ''}</td>${cells.join('')}<td>${total}</td></tr>`;
  });
  const totals = STATUSES.map((s) => LEVELS.reduce((n, level) => n + run.summary.counts[level][s], 0));
  const all = `<tr><td>all</td>${totals.map((n) => `<td>${n}</td>`).join('')}<td>${totals.reduce((a, b) => a + b, 0)}</td></tr>`;
  return `<table class="counts-table" data-testid="counts">${head}${rows.join('')}${all}</table>`;
}

function metaHtml(run: RunResult): string {
  const { options } = run;
  const items: [string, string][] = [
    ['Targets', run.targets.join(', ')],
    ['Profile', `${run.profile.name} (${run.profile.source})`],
    ['Gate', `${run.gate}: failures at this level or stricter fail the run`],
    ['Duration', `${formatDuration(run.durationMs)} (${run.startedAt} to ${run.finishedAt})`],
    ['Exit code', String(run.summary.exitCode)],
    ['Tool', `${run.tool.name} ${run.tool.version}`],
  ];
  if (options.only.length > 0) items.push(['Only', options.only.join(', ')]);
  if (options.skip.length > 0) items.push(['Skipped by option', options.skip.join(', ')]);
  if (options.baseline !== undefined) items.push(['Baseline', options.baseline]);
  return metaListHtml(items);
}

// autocomplete="off": a reload must not bring back filter states the script has not applied.
function toolbarHtml(): string {
  const boxes = STATUSES.map((s) => `<label><input type="checkbox" data-testid="filter-${s}" autocomplete="off" checked> ${s}</label>`).join('');
  return (
    `<nav class="toolbar" hidden aria-label="Filters">${boxes}` +
    `<input type="search" data-testid="filter-id" autocomplete="off" placeholder="filter by check id" aria-label="filter by check id">` +
    `<button type="button" data-testid="expand-all">expand all</button><button type="button" data-testid="collapse-all">collapse all</button>` +
    `<span class="shown" data-testid="shown-count"></span></nav>`
  );
}

/** Categories in catalogue order, then any other category a result names, in order of appearance. */
function groupByCategory(results: readonly CheckResult[]): Map<string, CheckResult[]> {
  const groups = new Map<string, CheckResult[]>(CATEGORY_ORDER.map((c) => [c, []]));
  for (const r of results) {
    const group = groups.get(r.category);
    if (group) group.push(r);
    else groups.set(r.category, [r]);
  }
  return groups;
}

export interface HtmlOptions {
  /**
   * rows: one row per check and node, grouped by category (the layout of a run against one node). grid:
   * one row per check and one column per node, checks that fail, error or differ between nodes first, the
   * rest folded under one line (the layout of a run against several). Default: grid when the run has more
   * than one target, else rows.
   */
  layout?: 'rows' | 'grid';
}

/** The layout renderHtml draws a run in: the option, else a grid for more than one target. */
export function htmlLayout(run: RunResult, options: HtmlOptions = {}): 'rows' | 'grid' {
  return options.layout ?? (run.targets.length > 1 ? 'grid' : 'rows');
}

function rowsMainHtml(run: RunResult): string {
  const sections: string[] = [];
  for (const [category, results] of groupByCategory(run.results)) {
    if (results.length === 0) continue;
    const failing = results.filter((r) => r.status === 'fail' || r.status === 'error').length;
    sections.push(
      `<section class="category" data-category="${h(category)}"><h2><span class="category-name">${h(category)}</span> <span class="note">${results.length} check${results.length === 1 ? '' : 's'}` +
        `${failing > 0 ? `, ${failing} failing` : ''}</span></h2>\n${results.map((r) => checkHtml(r, run)).join('\n')}</section>`,
    );
  }
  return sections.length > 0 ? sections.join('\n') : '<p class="note">No checks ran.</p>';
}

/**
 * The HTML report (report.html): one self-contained file (inline CSS and script, no external resource,
 * works from file://). It shows the verdict, the counts per level and status, and every result with its
 * evidence. Against one node, every check grouped by category, failing checks expanded. Against several,
 * a grid: a row per check, a column per node, each cell a disclosure of that node's evidence; checks that
 * fail, error or differ between nodes first, the rest folded under one line (gridHtml.ts). A filter by
 * status and by check id needs the script; without it the page is complete, just unfiltered.
 *
 * Everything is rendered here and escaped (a node's response is hostile input); the script carries no
 * data. A Content-Security-Policy allows only this page's own style and script, by hash, so even markup
 * that slipped through could neither run nor load anything.
 */
export function renderHtml(run: RunResult, options: HtmlOptions = {}): string {
  const headline = verdictHeadline(run);
  const grid = htmlLayout(run, options) === 'grid' ? nodeGrid(run) : undefined;
  return htmlPage({
    title: `chainrpc: ${headline.line}`,
    // The grid's stylesheet places its columns: it depends on their number, never on a run's text.
    styles: grid ? `${REPORT_CSS}${GRID_CSS}${gridColumnsCss(grid.columns.length)}` : REPORT_CSS,
    script: grid ? GRID_JS : REPORT_JS,
    body: [
      '<header>',
      '<h1>chainrpc conformance report</h1>',
      `<p class="verdict verdict-${headline.word.toLowerCase()}" data-testid="verdict">${h(headline.line)}</p>`,
      metaHtml(run),
      run.hints !== undefined && run.hints.length > 0 ? `<div class="hints" data-testid="hints"><p><strong>First, fix this:</strong></p><ul>${run.hints.map((hint) => `<li>${h(shortHint(hint))}</li>`).join('')}</ul></div>` : '',
      '</header>',
      `<section class="counts">${countsHtml(run)}</section>`,
      toolbarHtml(),
      '<main>',
      grid ? gridMainHtml(run, grid) : rowsMainHtml(run),
      '</main>',
    ],
  });
}
