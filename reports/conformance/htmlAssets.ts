import { PAGE_STYLES } from '../shared/htmlPage.js';

/**
 * The fixed stylesheet and script of report.html; the stylesheet starts with the styles every HTML
 * report shares (PAGE_STYLES). Neither holds any data of a run: the page is rendered (escaped) on the
 * server side, and the script only filters and expands what is there. Both are allowed by hash in the
 * page's Content-Security-Policy (htmlPage), so nothing else can run or load.
 */

export const REPORT_CSS = `
${PAGE_STYLES}h2 .category-name { text-transform: capitalize; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.verdict { font-size: 24px; font-weight: 700; margin: 0 0 12px; padding: 10px 14px; border-radius: 6px; border: 2px solid; }
.verdict-certified, .verdict-passed { color: var(--pass); }
.verdict-failed, .verdict-interrupted { color: var(--fail); }
.hints { border: 1px solid var(--error); border-left: 4px solid var(--error); border-radius: 4px; background: var(--panel); padding: 8px 14px; margin: 0 0 12px; }
.hints p { margin: 0 0 4px; }
.hints ul { margin: 0; padding-left: 20px; }
.hints li { margin: 2px 0; overflow-wrap: anywhere; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0 0 12px; }
.meta dt { color: var(--muted); }
.meta dd { margin: 0; overflow-wrap: anywhere; }
table.counts-table { border-collapse: collapse; margin: 8px 0 16px; }
.counts-table th, .counts-table td { border: 1px solid var(--line); padding: 4px 12px; text-align: right; }
.counts-table th:first-child, .counts-table td:first-child { text-align: left; }
.counts-table td.nonzero.fail, .counts-table td.nonzero.error { font-weight: 700; }
.toolbar { position: sticky; top: 0; z-index: 1; background: var(--bg); border-bottom: 1px solid var(--line);
  display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; padding-top: 8px; padding-bottom: 8px; }
.toolbar label { cursor: pointer; user-select: none; }
.toolbar input[type=search] { min-width: 260px; padding: 4px 8px; border: 1px solid var(--line); border-radius: 4px;
  background: var(--bg); color: var(--fg); }
.toolbar button { padding: 3px 10px; border: 1px solid var(--line); border-radius: 4px; background: var(--panel); color: var(--fg); cursor: pointer; }
.shown { color: var(--muted); margin-left: auto; }
details.check { border: 1px solid var(--line); border-left: 4px solid var(--skip); border-radius: 4px; margin: 4px 0; background: var(--bg); }
details.check.s-pass { border-left-color: var(--pass); }
details.check.s-fail { border-left-color: var(--fail); }
details.check.s-error { border-left-color: var(--error); }
/* A check's row: badge, level, id, the title with the room that is left, the node; the rule it checks (spec) on a
   line of its own under the title, however long it is, so it never squeezes the title into a narrow column. */
details.check > summary { cursor: pointer; padding: 5px 10px; display: grid; grid-template-columns: auto auto auto minmax(0, 1fr) auto; gap: 2px 10px; align-items: baseline; }
details.check > summary > .spec { grid-column: 4 / -1; }
details.check > summary > .node { max-width: 28ch; text-align: right; }
@media (max-width: 760px) {
  details.check > summary { display: flex; flex-wrap: wrap; gap: 4px 10px; }
  details.check > summary > .spec { flex-basis: 100%; }
}
details.check[open] > summary { border-bottom: 1px solid var(--line); background: var(--panel); }
.badge { display: inline-block; min-width: 46px; text-align: center; font-weight: 700; font-size: 11px; padding: 1px 6px;
  border-radius: 10px; color: #fff; background: var(--skip); text-transform: uppercase; }
.badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); } .badge.error { background: var(--error); }
.level { font-weight: 600; font-size: 11px; color: var(--muted); min-width: 56px; }
.title { flex: 1 1 240px; }
.node, .spec { color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
.mark { font-size: 11px; padding: 0 6px; border-radius: 4px; border: 1px solid var(--line); }
.evidence { padding: 8px 12px 12px; }
.evidence .message { font-weight: 600; margin: 0 0 8px; overflow-wrap: anywhere; }
.whole-message { margin: -4px 0 8px; } .whole-message > summary { cursor: pointer; color: var(--muted); font-size: 12px; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
pre { margin: 2px 0 8px; padding: 6px 8px; background: var(--code); border-radius: 4px; white-space: pre-wrap;
  overflow-wrap: anywhere; max-height: 360px; overflow: auto; }
.label { font-size: 11px; font-weight: 600; color: var(--muted); text-transform: uppercase; margin-top: 6px; }
.exchange { border-top: 1px dashed var(--line); padding-top: 6px; margin-top: 6px; }
.exchange-head { font-size: 12.5px; margin-bottom: 4px; overflow-wrap: anywhere; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
@media (max-width: 900px) { .pair, .sides { grid-template-columns: 1fr; } }
.note { color: var(--muted); font-size: 12px; }
`;

export const REPORT_JS = `
(function () {
  'use strict';
  var statuses = ['pass', 'fail', 'error', 'skip'];
  var toolbar = document.querySelector('.toolbar');
  var boxes = statuses.map(function (s) { return document.querySelector('[data-testid="filter-' + s + '"]'); });
  var text = document.querySelector('[data-testid="filter-id"]');
  var shown = document.querySelector('[data-testid="shown-count"]');
  var rows = Array.prototype.slice.call(document.querySelectorAll('details.check'));
  var keys = rows.map(function (row) { return (row.getAttribute('data-id') || '').toLowerCase(); });
  var sections = Array.prototype.slice.call(document.querySelectorAll('section.category'));
  function apply() {
    var on = {};
    statuses.forEach(function (s, i) { on[s] = boxes[i].checked; });
    var query = text.value.trim().toLowerCase();
    var count = 0;
    rows.forEach(function (row, i) {
      var visible = on[row.getAttribute('data-status')] === true && (query === '' || keys[i].indexOf(query) !== -1);
      if (row.hidden === visible) row.hidden = !visible;
      if (visible) count++;
    });
    sections.forEach(function (section) {
      section.hidden = section.querySelector('details.check:not([hidden])') === null;
    });
    shown.textContent = count + ' of ' + rows.length + ' checks shown';
  }
  boxes.forEach(function (box) { box.addEventListener('change', apply); });
  text.addEventListener('input', apply);
  document.querySelector('[data-testid="expand-all"]').addEventListener('click', function () {
    rows.forEach(function (row) { if (!row.hidden) row.open = true; });
  });
  document.querySelector('[data-testid="collapse-all"]').addEventListener('click', function () {
    rows.forEach(function (row) { row.open = false; });
  });
  toolbar.hidden = false;
  apply();
})();
`;

/**
 * The grid of a run against several nodes (gridHtml.ts), added after REPORT_CSS; gridColumnsCss adds the
 * template and each column's place. An open cell leaves its column for a row of its own under the row, as
 * wide as the grid; the copy of its badge that follows it (.ph) holds its place in the column meanwhile.
 */
export const GRID_CSS = `.grid-intro { margin: 4px 0 0; }
details.same > summary { cursor: pointer; margin: 24px 0 8px; }
details.same > summary h2 { display: inline; margin: 0; font-size: 16px; }
details.same > .grid { margin-top: 0; }
/* One column as wide as the widest row, so that category lines span a grid scrolled sideways; a container, so
   that an open cell's evidence can be as wide as the grid's visible part (cqw), pinned there while it scrolls. */
.grid { display: grid; grid-template-columns: minmax(min-content, 1fr); container-type: inline-size; border: 1px solid var(--line);
  border-radius: 6px; overflow-x: auto; margin: 0 0 8px; }
.grow { display: grid; border-top: 1px solid var(--line); min-width: min-content; }
.grid > .grow:first-child { border-top: 0; }
.ghead { background: var(--panel); font-size: 12px; font-weight: 600; }
.ghead > .gcheck { align-items: flex-end; color: var(--muted); }
.gcheck { grid-row: 1; grid-column: 1; padding: 5px 10px; display: flex; flex-wrap: wrap; gap: 0 8px; align-items: baseline; align-content: flex-start; min-width: 0; }
.gcheck .id { overflow-wrap: anywhere; font-weight: 600; }
.gcheck .level { min-width: 0; }
.gtitle { flex: 1 1 100%; color: var(--muted); font-size: 12px; }
.ghc { grid-row: 1; padding: 5px 6px; text-align: center; border-left: 1px solid var(--line); min-width: 0; }
.gurl { display: block; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.gcounts { display: block; font-weight: 400; font-size: 11px; }
.n-fail { color: var(--fail); font-weight: 700; } .n-error { color: var(--error); font-weight: 700; }
.ggroup { padding: 8px 10px 2px; font-weight: 600; font-size: 13px; border-top: 1px solid var(--line); background: var(--bg); }
.ggroup .category-name { text-transform: capitalize; }
.grow > .cell, .grow > .ph, .grow > .none { grid-row: 1; border-left: 1px solid var(--line); min-width: 0; }
.grow > .span { grid-column: 2 / -1; }
.grow > details.cell > summary { list-style: none; cursor: pointer; display: flex; flex-wrap: wrap; justify-content: center; align-items: center;
  align-content: center; gap: 3px 4px; padding: 6px 4px; height: 100%; }
.grow > details.cell > summary::-webkit-details-marker { display: none; }
.grow > details.cell > summary:hover { background: var(--panel); }
.grow > details.cell > summary:focus-visible { outline: 2px solid var(--fg); outline-offset: -2px; }
.grow > details.cell.s-fail > summary { background: color-mix(in srgb, var(--fail) 9%, transparent); }
.grow > details.cell.s-error > summary { background: color-mix(in srgb, var(--error) 11%, transparent); }
.grow > details.span > summary { justify-content: flex-start; padding-left: 10px; }
.cmsg { font-size: 12px; overflow-wrap: anywhere; flex: 1 1 100%; }
.cnode { font-weight: 600; }
.chip { font-size: 10.5px; line-height: 1.5; padding: 0 4px; border-radius: 4px; border: 1px solid var(--line); color: var(--muted); white-space: nowrap; }
.where { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.grow > .span .where { position: static; width: auto; height: auto; clip-path: none; color: var(--muted); font-size: 12px; }
.grow > details.cell[open] { grid-column: 1 / -1; grid-row: auto; margin: 2px 8px 8px; border: 1px solid var(--line);
  border-left: 4px solid var(--skip); border-radius: 4px; position: sticky; left: 8px; max-width: calc(100cqw - 16px); }
.grow > details.cell.s-pass[open] { border-left-color: var(--pass); }
.grow > details.cell.s-fail[open] { border-left-color: var(--fail); }
.grow > details.cell.s-error[open] { border-left-color: var(--error); }
.grow > details.cell[open] > summary { justify-content: flex-start; height: auto; padding: 5px 10px; border-bottom: 1px solid var(--line); background: var(--panel); }
.grow > details.cell[open] > summary::after { content: "close \\25B4"; margin-left: auto; color: var(--muted); font-size: 12px; }
.grow > details.cell[open] > summary > .cmsg { display: none; }
.grow > details.cell[open] .where { position: static; width: auto; height: auto; clip-path: none; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 12.5px; overflow-wrap: anywhere; white-space: normal; }
.evidence .marks { margin: 0 0 8px; }
.evidence .rule { margin: 0 0 6px; overflow-wrap: anywhere; }
.ph { display: none; }
.grow > details.cell[open] + .ph { display: flex; justify-content: center; align-items: center; gap: 4px; background: var(--panel);
  box-shadow: inset 0 -3px 0 var(--skip); }
.grow > details.cell.s-pass[open] + .ph { box-shadow: inset 0 -3px 0 var(--pass); }
.grow > details.cell.s-fail[open] + .ph { box-shadow: inset 0 -3px 0 var(--fail); }
.grow > details.cell.s-error[open] + .ph { box-shadow: inset 0 -3px 0 var(--error); }
.js .ph { cursor: pointer; }
.ph-open { color: var(--muted); font-size: 11px; }
.none { display: flex; justify-content: center; align-items: center; color: var(--muted); }
.grow > .cell.dim > summary, .grow > .cell.dim + .ph { opacity: 0.3; }
`;

export const GRID_JS = `
(function () {
  'use strict';
  var statuses = ['pass', 'fail', 'error', 'skip'];
  var all = function (root, selector) { return Array.prototype.slice.call(root.querySelectorAll(selector)); };
  var toolbar = document.querySelector('.toolbar');
  var boxes = statuses.map(function (s) { return document.querySelector('[data-testid="filter-' + s + '"]'); });
  var text = document.querySelector('[data-testid="filter-id"]');
  var shown = document.querySelector('[data-testid="shown-count"]');
  var rows = all(document, '.grow[data-id]');
  var keys = rows.map(function (row) { return (row.getAttribute('data-id') || '').toLowerCase(); });
  var cells = rows.map(function (row) { return all(row, 'details.cell'); });
  var parts = all(document, '.part');
  var same = document.querySelector('details.same');
  // Each category line with the rows under it, up to the next line.
  var groups = all(document, '.ggroup').map(function (line) {
    var members = [];
    for (var next = line.nextElementSibling; next && !next.classList.contains('ggroup'); next = next.nextElementSibling) {
      if (next.hasAttribute('data-id')) members.push(next);
    }
    return { line: line, members: members };
  });
  function apply() {
    var on = {};
    statuses.forEach(function (s, i) { on[s] = boxes[i].checked; });
    var query = text.value.trim().toLowerCase();
    var count = 0;
    rows.forEach(function (row, i) {
      // A row shows when its id matches and some cell has a status that is ticked; the other cells are dimmed.
      var any = false;
      cells[i].forEach(function (cell) {
        var ticked = on[cell.getAttribute('data-status')] === true;
        cell.classList.toggle('dim', !ticked);
        if (ticked) any = true;
      });
      var visible = any && (query === '' || keys[i].indexOf(query) !== -1);
      if (row.hidden === visible) row.hidden = !visible;
      if (visible) count++;
    });
    groups.forEach(function (group) {
      group.line.hidden = !group.members.some(function (row) { return !row.hidden; });
    });
    parts.forEach(function (part) {
      part.hidden = part.querySelector('.grow[data-id]:not([hidden])') === null;
    });
    // A filter that leaves rows in the folded part opens it: they are what was asked for.
    var filtering = query !== '' || boxes.some(function (box) { return !box.checked; });
    if (filtering && same && !same.hidden) same.open = true;
    shown.textContent = count + ' of ' + rows.length + ' checks shown';
  }
  boxes.forEach(function (box) { box.addEventListener('change', apply); });
  text.addEventListener('input', apply);
  // The copy of an open cell's badge, left in its column, closes the cell.
  all(document, '.ph').forEach(function (ph) {
    ph.addEventListener('click', function () {
      var cell = ph.previousElementSibling;
      if (cell) cell.open = false;
    });
  });
  document.querySelector('[data-testid="expand-all"]').addEventListener('click', function () {
    rows.forEach(function (row, i) {
      if (row.hidden || (same && !same.open && same.contains(row))) return;
      cells[i].forEach(function (cell) { if (!cell.classList.contains('dim')) cell.open = true; });
    });
  });
  document.querySelector('[data-testid="collapse-all"]').addEventListener('click', function () {
    cells.forEach(function (list) { list.forEach(function (cell) { cell.open = false; }); });
  });
  document.body.classList.add('js');
  toolbar.hidden = false;
  apply();
})();
`;
