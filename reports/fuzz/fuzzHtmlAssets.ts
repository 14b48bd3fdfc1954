/**
 * The fixed stylesheet of a fuzz run's report.html: the styles every HTML report shares (PAGE_STYLES), the
 * charts' (CHART_CSS), the tables' (TABLE_CSS), then the fuzz report's own (the headline, a finding's card, its bodies and commands,
 * the tables). It holds no data of a run; the page's Content-Security-Policy allows it by hash. The page needs
 * no script: the charts are drawn on the server and sections fold with <details>.
 */
import { PAGE_STYLES } from '../shared/htmlPage.js';
import { CHART_CSS } from '../shared/svgChart.js';
import { TABLE_CSS } from '../shared/htmlTable.js';

export const FUZZ_REPORT_CSS = `
${PAGE_STYLES}${CHART_CSS}${TABLE_CSS}
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
h3 { font-size: 14px; margin: 0 0 6px; display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: baseline; }
.verdict { font-size: 22px; font-weight: 700; margin: 0 0 8px; padding: 10px 14px; border-radius: 6px; border: 2px solid; overflow-wrap: anywhere; }
.verdict-passed { color: var(--pass); } .verdict-failed { color: var(--fail); } .verdict-error { color: var(--error); }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0 0 12px; }
.meta dt { color: var(--muted); }
.meta dd { margin: 0; overflow-wrap: anywhere; }
nav.toc { display: flex; flex-wrap: wrap; gap: 4px 14px; max-width: 1400px; margin: 0 auto; padding: 4px 24px; border-top: 1px solid var(--line); border-bottom: 1px solid var(--line); }
nav.toc a, section a { color: inherit; }
main > section { border-top: 1px solid var(--line); margin-top: 20px; }
.finding { border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 4px; padding: 10px 14px; margin: 10px 0; background: var(--bg); }
.finding.flaky { border-left-color: var(--error); }
.finding .fid { font-weight: 700; }
.finding .url { color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
.finding .message { font-weight: 600; margin: 0 0 4px; overflow-wrap: anywhere; }
.finding details > summary { cursor: pointer; color: var(--muted); margin: 6px 0; }
.badge { display: inline-block; font-size: 11px; font-weight: 700; padding: 1px 8px; border-radius: 10px; color: #fff; background: var(--fail); text-transform: uppercase; }
.badge.warn { background: var(--error); color: #fff; } .badge.muted { background: var(--skip); color: #fff; }
.label { font-size: 11px; font-weight: 600; color: var(--muted); text-transform: uppercase; margin-top: 8px; }
.case-head { margin: 2px 0; overflow-wrap: anywhere; }
pre { margin: 2px 0 8px; padding: 6px 8px; background: var(--code); border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 360px; overflow: auto; }
pre.hex { white-space: pre; overflow-x: auto; }
pre.command { border-left: 3px solid var(--line); }
table.data tbody th { font-weight: 500; overflow-wrap: anywhere; }
.bad { color: var(--fail); font-weight: 600; } .warn { color: var(--error); font-weight: 600; } .ok { color: var(--pass); font-weight: 600; }
ul.tool-errors li { margin: 2px 0; overflow-wrap: anywhere; }
.note { color: var(--muted); font-size: 12px; }
footer { padding: 16px 24px 32px; max-width: 1400px; margin: 0 auto; }
`;
