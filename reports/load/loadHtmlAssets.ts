import { PAGE_STYLES } from '../shared/htmlPage.js';
import { CHART_CSS } from '../shared/svgChart.js';
import { TABLE_CSS } from '../shared/htmlTable.js';

/**
 * The fixed stylesheet of the load report (report.html): the styles every HTML report shares
 * (PAGE_STYLES), the charts' (CHART_CSS), the tables' (TABLE_CSS), then the load report's own. It holds no data of a run; the page's
 * Content-Security-Policy allows it by hash. The page needs no script: every chart is drawn on the server.
 */
export const LOAD_REPORT_CSS = `
${PAGE_STYLES}${CHART_CSS}${TABLE_CSS}
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
h1 .scenario { color: var(--fg); }
h3 { font-size: 14px; margin: 18px 0 6px; }
.verdict { font-size: 22px; font-weight: 700; margin: 0 0 8px; padding: 10px 14px; border-radius: 6px; border: 2px solid; overflow-wrap: anywhere; }
.verdict-passed { color: var(--pass); }
.verdict-failed { color: var(--fail); }
.verdict-not-trusted, .verdict-interrupted { color: var(--error); }
ul.facts { margin: 0 0 12px; padding-left: 20px; }
ul.facts li { margin: 2px 0; overflow-wrap: anywhere; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0 0 12px; }
.meta dt { color: var(--muted); }
.meta dd { margin: 0; overflow-wrap: anywhere; }
details.definition > summary { cursor: pointer; color: var(--muted); }
pre { margin: 4px 0 8px; padding: 6px 8px; background: var(--code); border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 420px; overflow: auto; }
nav.toc { display: flex; flex-wrap: wrap; gap: 4px 14px; padding-top: 4px; padding-bottom: 4px; border-top: 1px solid var(--line); border-bottom: 1px solid var(--line); }
nav.toc a, section a { color: inherit; }
section.run, section.sweep, section.comparison, section.baseline { border-top: 1px solid var(--line); margin-top: 20px; }
h2 .url { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 15px; overflow-wrap: anywhere; }
.badge { display: inline-block; font-size: 11px; font-weight: 700; padding: 1px 8px; border-radius: 10px; color: #fff; vertical-align: middle; margin-left: 4px; text-transform: uppercase; }
span.badge.ok { background: var(--pass); color: #fff; } span.badge.bad { background: var(--fail); color: #fff; } span.badge.warn { background: var(--error); color: #fff; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 10px; margin: 10px 0 14px; }
.card { border: 1px solid var(--line); border-left: 4px solid var(--line); border-radius: 6px; padding: 8px 12px; background: var(--panel); }
.card.tone-bad { border-left-color: var(--fail); } .card.tone-warn { border-left-color: var(--error); }
.card-label { font-size: 11px; font-weight: 600; color: var(--muted); text-transform: uppercase; }
.card-value { font-size: 22px; font-weight: 700; font-variant-numeric: tabular-nums; }
.card-note { font-size: 12px; color: var(--muted); }
.callout { border: 1px solid var(--line); border-left: 4px solid var(--error); border-radius: 4px; background: var(--panel); padding: 8px 14px; margin: 8px 0; overflow-wrap: anywhere; }
.callout.bad { border-left-color: var(--fail); }
.callout ul { margin: 4px 0 0; padding-left: 20px; }
table.data tbody th { font-weight: 500; white-space: nowrap; }
table.data .note { color: var(--muted); font-size: 12px; }
table.data .zero { color: var(--muted); }
table.data .best { font-weight: 700; }
table.data[data-testid="diff-examples"] td { max-width: 22em; overflow-wrap: anywhere; font-family: ui-monospace, monospace; font-size: 12px; }
.ok { color: var(--pass); font-weight: 600; } .bad { color: var(--fail); font-weight: 600; } span.warn { color: var(--error); font-weight: 600; }
.knee { font-size: 18px; margin: 6px 0 10px; }
.note { color: var(--muted); font-size: 12px; }
footer { padding: 16px 24px 32px; max-width: 1400px; margin: 0 auto; }
`;
