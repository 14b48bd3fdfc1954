import { escapeHtml as h } from './escapeHtml.js';

/** The styles of htmlTable's tables (a report adds its own after them: how a row's header wraps, its notes). */
export const TABLE_CSS = `
.table-wrap { overflow-x: auto; }
table.data { border-collapse: collapse; margin: 4px 0 10px; font-size: 13px; }
table.data th, table.data td { border-bottom: 1px solid var(--line); padding: 3px 12px 3px 0; text-align: left; vertical-align: top; }
table.data thead th { color: var(--muted); font-weight: 600; border-bottom: 2px solid var(--line); white-space: nowrap; }
table.data .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; padding-left: 14px; }
`;

/** A table cell: its HTML (already escaped) and, for numbers, the class that aligns it right. */
export interface Cell {
  html: string;
  num?: boolean;
  className?: string;
}

/** A cell of plain text (escaped here). */
export const text = (value: string, className?: string): Cell => ({ html: h(value), ...(className === undefined ? {} : { className }) });
/** A cell holding a figure: right-aligned, digits of equal width. */
export const num = (value: string, className?: string): Cell => ({ html: h(value), num: true, ...(className === undefined ? {} : { className }) });

const cellHtml = (tag: 'td' | 'th', c: Cell): string => {
  const classes = [c.num === true ? 'num' : '', c.className ?? ''].filter((x) => x !== '').join(' ');
  return `<${tag}${classes === '' ? '' : ` class="${classes}"`}>${c.html}</${tag}>`;
};

/**
 * A data table: a header row, then rows of cells; the first cell of a row is its header (th). Marked
 * data-testid for tests and tools; wrapped so a wide table scrolls by itself instead of the page.
 */
export function htmlTable(testid: string, head: readonly Cell[], rows: readonly (readonly Cell[])[], caption?: string): string {
  const headRow = `<tr>${head.map((c) => cellHtml('th', c)).join('')}</tr>`;
  const body = rows.map((row) => `<tr>${row.map((c, i) => cellHtml(i === 0 ? 'th' : 'td', c)).join('')}</tr>`).join('');
  return `<div class="table-wrap"><table class="data" data-testid="${h(testid)}">${caption === undefined ? '' : `<caption>${h(caption)}</caption>`}<thead>${headRow}</thead><tbody>${body}</tbody></table></div>`;
}
