// Public API of inclusion tracking (docs/load-transactions.md, "Inclusion tracking").
export { InclusionTracker } from './InclusionTracker.js';
export type { InclusionMethod, InclusionPoint, InclusionResult, InclusionTrackerOptions } from './InclusionTracker.js';
