/**
 * A k6 summary that cannot be read (readK6Summary.ts) or merged (mergeK6Summaries.ts, executionSegments.ts):
 * the message says which file, which field and what is expected, and the CLI exits 2 with it.
 */
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';

/** A summary that cannot be read or merged; the message says which file, which field and what is expected. */
export class K6SummaryError extends ChainrpcError {
  readonly kind = 'usage';
  override readonly name = 'K6SummaryError';
}

/** A value as these messages show it: JSON, cut at 60 characters; `nothing` for a missing one. */
export const show = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  if (typeof v === 'bigint') return v.toString();
  const text = JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};
