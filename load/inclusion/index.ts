// Public API of inclusion tracking (docs/load-transactions.md, "Inclusion tracking").
export { InclusionTracker } from './InclusionTracker.js';
export type { InclusionMethod, InclusionPoint, InclusionResult, InclusionTrackerOptions } from './InclusionTracker.js';
export { ExactHistogram } from './ExactHistogram.js';
export type { InclusionHistogram } from './ExactHistogram.js';
