// What every report kind shares: the report folder and its `latest` link, the JSON envelope, JUnit XML,
// the HTML page shell, its tables and SVG charts, text made safe for XML, HTML, Markdown and terminals, and
// the terminal line a live progress display rewrites.
export { DEFAULT_REPORT_DIR, LATEST_LINK, checkReportRoot, latestLinkOf, publishReportFolder, runFolderName, writeReportFolder, type ReportFiles, type WrittenFolder } from './reportFolder.js';
export { renderJsonReport, type VersionedReport } from './jsonReport.js';
export { renderJunitXml, type JunitCase, type JunitDocument, type JunitSuite } from './junitXml.js';
export { PAGE_STYLES, htmlPage, metaListHtml, type HtmlPage } from './htmlPage.js';
export { htmlTable, num, text, TABLE_CSS, type Cell } from './htmlTable.js';
export {
  CHART_CSS,
  emptyChart,
  formatTick,
  histogramChartSvg,
  lineChartSvg,
  niceStep,
  ticks,
  type ChartAxis,
  type ChartBand,
  type ChartColor,
  type ChartMarker,
  type ChartPoint,
  type HistogramBin,
  type HistogramChartSpec,
  type LineChartSpec,
  type LineSeries,
} from './svgChart.js';
export { escapeHtml } from './escapeHtml.js';
export { escapeXml } from './escapeXml.js';
export { markdownCode, markdownFence, markdownText } from './markdownText.js';
export { showControls } from './showControls.js';
export { excerpt } from '../../core/excerpt.js';
export { formatDuration } from './formatDuration.js';
export { CLEAR_LINE, fitLine, type ProgressStream } from './terminalLine.js';
