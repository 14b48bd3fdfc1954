/**
 * The fuzzer's case generation, as the runner uses it: `caseAt` (one case from a seed and an index), the context
 * it needs, and the rules a case can carry.
 */
export { caseAt, CASE_RULES, FAMILY_WEIGHTS } from './caseAt.js';
export { DEFAULT_MAX_BATCH, DEFAULT_MAX_BODY_BYTES, makeCaseContext, unknownOnly, type CaseContext } from './CaseContext.js';
export { INVALID_PARAMS_RULES, LENIENCY_OF_RULE, PLAUSIBLE_RULES } from './invalidParams.js';
export { VALID_RULES } from './validCalls.js';
