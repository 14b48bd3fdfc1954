// Reports: the parts every report kind shares (shared/), and the reports of a conformance run (conformance/).
export * from './shared/index.js';
export * from './conformance/index.js';
export { curlFor } from '../suites/runner/curlFor.js';
export { isExpectedFailure, isGating, levelGates, summarize, verdictHeadline, type Headline, type VerdictWord } from '../suites/runner/verdict.js';
