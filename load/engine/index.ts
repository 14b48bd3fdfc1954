export { runEngine, planThreads, isGeneratorReason, DEFAULT_MAX_LAG_P99_US, MAX_LAG_STALL_US, type EngineOptions, type EngineResult } from './runEngine.js';
export { parseTarget, type HttpTarget } from './HttpConnection.js';
export { Schedule } from './Schedule.js';
export type { CreateSource, PlannedCall, PlannedRequest, RequestSource, SourceShare, SourceSpec, TrackedOutcome } from './RequestSource.js';
