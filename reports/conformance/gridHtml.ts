import type { CheckResult, RunResult } from '../../suites/model.js';
import { isExpectedFailure, isGating } from '../../suites/runner/verdict.js';
import { escapeHtml as h } from '../shared/escapeHtml.js';
import { baselineMark, baselineText, evidenceParts } from './evidenceHtml.js';
import { networkCulprits, rowResults, sameLine } from './nodeGrid.js';
import { shortMessage } from './shortText.js';
import type { GridColumn, GridPart, GridRow, NodeGrid } from './nodeGrid.js';

/**
 * report.html for a run against several nodes: one row per check, one column per node (nodeGrid.ts). Each
 * cell is a <details>: its <summary> is the status badge, a click (or Enter) opens that node's evidence in
 * a panel as wide as the row, under it (the stylesheet moves an open cell to a row of its own and leaves a
 * copy of its badge in the column, so the grid keeps its shape). It needs no script: the script only adds
 * the filters and lets a click on that copy close the panel. Everything is escaped here.
 */

const PART_TITLES: Record<Exclude<GridPart, 'same'>, string> = {
  failing: 'Fail or error on some node',
  differ: 'Results differ between nodes',
};

/** How wide a node's column is, by how many there are: wide enough for "127.0.0.1:8545" and a badge with a mark. */
function columnWidth(columns: number): number {
  return columns <= 2 ? 200 : columns <= 4 ? 160 : columns <= 6 ? 136 : 116;
}

/**
 * The part of the grid's stylesheet that depends on its number of columns: the template, and the column of
 * each node's cells. It is made from that number only (never from a run's text), like the fixed styles.
 */
export function gridColumnsCss(columns: number): string {
  const n = Math.max(1, columns);
  const lines = [`.grow { grid-template-columns: minmax(240px, 1fr) repeat(${n}, ${columnWidth(n)}px); }`];
  for (let i = 1; i <= n; i++) lines.push(`.grow > .c${i} { grid-column: ${i + 1}; }`);
  return `${lines.join('\n')}\n`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A failure or error that matters (no baseline expects it) at a level below the gate. */
const belowGate = (r: CheckResult, run: RunResult): boolean => (r.status === 'fail' || r.status === 'error') && !isExpectedFailure(r) && !isGating(r, run.gate);

const SHORT_MARK = { 'expected-fail': 'expected', 'now-passing': 'now passes', expired: 'expired' } as const;

/** The marks of a cell, short (the full text is their title, and opens the evidence). */
function chipsHtml(r: CheckResult, run: RunResult): string {
  const chips: string[] = [];
  const text = baselineText(r);
  if (r.baseline && text !== undefined) chips.push(`<span class="chip" data-testid="cell-mark" title="${h(text)}">${SHORT_MARK[r.baseline.state]}</span>`);
  if (belowGate(r, run)) chips.push(`<span class="chip" data-testid="cell-mark" title="below the gate (${run.gate}): does not fail the run">does not gate</span>`);
  return chips.join('');
}

/** One result as a cell: its badge and marks, and its evidence when opened. `place` is the column class ("c3") or "span". */
function cellHtml(r: CheckResult, run: RunResult, place: string, where: string, grid: NodeGrid): string {
  const marks = [baselineMark(r).trimStart(), belowGate(r, run) ? '<span class="mark">does not gate</span>' : ''].filter((m) => m !== '');
  const rule = `<p class="note rule">${r.level} · ${h(r.spec)}</p>`;
  const evidence = [rule, marks.length > 0 ? `<p class="marks">${marks.join(' ')}</p>` : '', ...evidenceParts(r)].join('');
  // A network check's one cell says which node the failure came from, where its message does not.
  const culprits = networkCulprits(r, grid.columns);
  const on = culprits.length === 0 ? '' : `<span class="cnode" data-testid="cell-node" title="${h(culprits.map((c) => c.url).join(', '))}">on ${h(culprits.map((c) => c.label).join(', '))}:</span> `;
  const message = place === 'span' ? `<span class="cmsg">${on}${h(shortMessage(r.evidence.message))}</span>` : '';
  const summary =
    `<summary title="${h(`${r.status} ${where}${culprits.length === 0 ? '' : ` (on ${culprits.map((c) => c.url).join(', ')})`}: ${shortMessage(r.evidence.message)}`)}"><span class="badge ${r.status}">${r.status}</span>` +
    `${chipsHtml(r, run)}<span class="where">${h(where)}</span>${message}</summary>`;
  return (
    `<details class="cell ${place} s-${r.status}" data-testid="check" data-status="${r.status}" data-id="${h(r.id)}" data-node="${h(r.node)}">` +
    `${summary}<div class="evidence">${evidence}</div></details>` +
    // Shown in the column while the cell is open (and has moved under the row); a click on it closes the cell (script).
    `<span class="ph ${place} s-${r.status}" aria-hidden="true"><span class="badge ${r.status}">${r.status}</span><span class="ph-open">▾</span></span>`
  );
}

function rowHtml(row: GridRow, grid: NodeGrid, run: RunResult): string {
  const results = rowResults(row);
  const { info } = row;
  const check =
    `<div class="gcheck"><span class="level">${info.level}</span><code class="id" title="${h(info.spec)}">${h(row.id).replace(/\//g, '/<wbr>')}</code>` +
    `<span class="gtitle">${h(info.title)}</span></div>`;
  const cells = row.network
    ? [cellHtml(row.network, run, 'span', `for the network (${plural(run.targets.length, 'node')} together)`, grid)]
    : row.cells.map((r, i) => {
        const column = grid.columns[i];
        if (r) return cellHtml(r, run, `c${i + 1}`, `on ${r.node}`, grid);
        // An empty cell: a target without a result for this check, or a column of a node that is not a target.
        return column?.target === false ? `<span class="none c${i + 1}"></span>` : `<span class="none c${i + 1}" title="no result from this node">–</span>`;
      });
  const statuses = [...new Set(results.map((r) => r.status))].join(' ');
  return (
    `<div class="grow${row.network ? ' network' : ''}" data-testid="grid-row" data-id="${h(row.id)}" data-part="${row.part}" data-category="${h(info.category)}" data-statuses="${statuses}">` +
    `${check}${cells.join('')}</div>`
  );
}

function headHtml(grid: NodeGrid): string {
  const heads = grid.columns.map((c: GridColumn, i) => {
    const counts = (['fail', 'error'] as const).filter((s) => c.counts[s] > 0).map((s) => `<span class="n-${s}">${c.counts[s]} ${s}</span>`);
    const tally = counts.length > 0 ? counts.join(' ') : c.counts.pass + c.counts.skip > 0 ? '<span class="note">no failure</span>' : '<span class="note">no results</span>';
    const stray = c.target ? '' : ' <span class="note">(not a target)</span>';
    return `<div class="ghc c${i + 1}" data-testid="node-head" title="${h(c.url)}"><span class="gurl">${h(c.label)}</span>${stray}<span class="gcounts">${tally}</span></div>`;
  });
  return `<div class="grow ghead"><div class="gcheck">Check</div>${heads.join('')}</div>`;
}

/** A part's grid: the heading row, then its rows under a line per category. */
function gridHtml(rows: readonly GridRow[], grid: NodeGrid, run: RunResult): string {
  const out = [headHtml(grid)];
  let category: string | undefined;
  for (const row of rows) {
    if (row.info.category !== category) {
      category = row.info.category;
      const inCategory = rows.filter((r) => r.info.category === category).length;
      out.push(`<div class="ggroup" data-category="${h(category)}"><span class="category-name">${h(category)}</span> <span class="note">${plural(inCategory, 'check')}</span></div>`);
    }
    out.push(rowHtml(row, grid, run));
  }
  return `<div class="grid" data-testid="grid">\n${out.join('\n')}\n</div>`;
}

/** The inside of <main> for a run against several nodes: the intro, the failing and differing checks, the rest folded. */
export function gridMainHtml(run: RunResult, grid: NodeGrid): string {
  if (grid.rows.length === 0) return '<p class="note">No checks ran.</p>';
  const out: string[] = [];
  const results = grid.rows.reduce((n, row) => n + rowResults(row).length, 0);
  out.push(
    `<p class="grid-intro note" data-testid="grid-intro">${plural(grid.rows.length, 'check')} on ${plural(grid.columns.length, 'node')} (${plural(results, 'result')}): ` +
      'a row per check, a column per node. Click a cell to open that node\u2019s evidence under the row. ' +
      'Checks that fail or error on some node come first, then those whose results differ between nodes; the others are folded at the end.</p>',
  );
  for (const part of ['failing', 'differ'] as const) {
    const rows = grid.rows.filter((r) => r.part === part);
    if (rows.length === 0) continue;
    out.push(
      `<section class="part" data-part="${part}" data-testid="part-${part}"><h2>${PART_TITLES[part]} <span class="note">${plural(rows.length, 'check')}</span></h2>\n` +
        `${gridHtml(rows, grid, run)}</section>`,
    );
  }
  const same = grid.rows.filter((r) => r.part === 'same');
  if (out.length === 1) out.push('<p class="note" data-testid="no-differences">No check fails, errs or differs between the nodes.</p>');
  if (same.length > 0) {
    out.push(
      `<details class="part same" data-part="same" data-testid="part-same"><summary data-testid="same-summary"><h2>${h(sameLine(same))}</h2></summary>\n` +
        `${gridHtml(same, grid, run)}</details>`,
    );
  }
  return out.join('\n');
}
