import type { JsonValue } from '../../core/json/index.js';

/**
 * How sure a finding is. high: the node's answer decides it (an error code, a status, a value seen);
 * medium: an answer points to it but another reading is possible (a synonym key, one sample, a code
 * shared by two conditions); low: nothing was seen, the value is the reference profile's default.
 */
export type Confidence = 'high' | 'medium' | 'low';

/** Where a finding's value comes from. */
export type Basis = 'probed' | 'given' | 'default';

/** One decided profile choice, with the evidence that decided it. */
export interface Finding {
  /**
   * The profile key it decides: a top-level key of the profile file (`keyCase`), or a dotted path into
   * one (`http.notification`, `params.byName`, `health.status`, `errorCodes.NonceGap`,
   * `errorCodes.InvalidParams/address`, `fields.parent_hash`).
   */
  readonly key: string;
  /** The value as the profile file writes it (null: unknown, or "the node has none"). */
  readonly value: JsonValue;
  readonly confidence: Confidence;
  /** One line: what was sent and what came back (or why nothing could be sent). */
  readonly evidence: string;
  readonly basis: Basis;
  /**
   * False for findings that explain without being written at their key: per-field details (the file
   * writes only the `fields` exceptions), a chain id the suite reads from chain_health itself, the
   * reference codec (a profile file names only other codecs), methods that were not found.
   */
  readonly written: boolean;
}

/** A finding decided by the node's answers. */
export const probed = (key: string, value: JsonValue, confidence: Confidence, evidence: string, written = true): Finding => ({ key, value, confidence, evidence, basis: 'probed', written });

/** A finding given on the command line: taken as it is, high confidence. */
export const given = (key: string, value: JsonValue, evidence: string, written = true): Finding => ({ key, value, confidence: 'high', evidence, basis: 'given', written });

/** A finding left to the default, low confidence: the evidence says why nothing decided it. */
export const fallback = (key: string, value: JsonValue, evidence: string, written = true): Finding => ({ key, value, confidence: 'low', evidence, basis: 'default', written });
