/**
 * The two words every rule of the interface is filed under, shared by whoever names a rule: a conformance
 * check (suites/model.ts) and a fault that breaks one (reference-node/faults/bends.ts).
 */

/**
 * What backs a rule. MUST: stated by the interface spec or by JSON-RPC 2.0. SHOULD: what any sound node
 * does where the spec is silent. PROFILE: the exact choice of the profile in use (by default the reference
 * profile). Ordered from the strictest to the most specific.
 */
export type Level = 'MUST' | 'SHOULD' | 'PROFILE';
export const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'PROFILE'];

/** The part of the interface a rule is about. */
export type Category = 'transport' | 'methods' | 'chain' | 'state' | 'pou' | 'network' | 'discovery';
