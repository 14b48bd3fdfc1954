// What every report kind shares: the report folder and its `latest` link, the JSON envelope, JUnit XML,
// the HTML page shell, and text made safe for XML, HTML, Markdown and terminals.
export { DEFAULT_REPORT_DIR, LATEST_LINK, checkReportRoot, latestLinkOf, publishReportFolder, runFolderName, writeReportFolder, type ReportFiles, type WrittenFolder } from './reportFolder.js';
export { renderJsonReport, type VersionedReport } from './jsonReport.js';
export { renderJunitXml, type JunitCase, type JunitDocument, type JunitSuite } from './junitXml.js';
export { PAGE_STYLES, htmlPage, metaListHtml, type HtmlPage } from './htmlPage.js';
export { escapeHtml } from './escapeHtml.js';
export { escapeXml } from './escapeXml.js';
export { markdownCode, markdownFence, markdownText } from './markdownText.js';
export { showControls } from './showControls.js';
export { excerpt } from './excerpt.js';
export { formatDuration } from './formatDuration.js';
