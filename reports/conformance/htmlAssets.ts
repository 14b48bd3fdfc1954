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
.verdict-failed { color: var(--fail); }
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
details.check > summary { cursor: pointer; padding: 5px 10px; display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: baseline; }
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
