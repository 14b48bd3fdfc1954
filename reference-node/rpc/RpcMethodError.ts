import type { JsonValue } from '../../core/json/index.js';

/**
 * What a method handler throws to answer with a JSON-RPC error object (JSON-RPC 2.0, section 5.1):
 * the dispatcher sends `{code, message, data?}` as given. Anything else a handler throws is a bug
 * and is answered with -32603 Internal error, without its details.
 */
export class RpcMethodError extends Error {
  override readonly name = 'RpcMethodError';
  /** JSON-RPC 2.0 §5.1: "A Number that indicates the error type"; it MUST be an integer. */
  readonly code: number;
  // `declare`: no class-field initialiser, so without data the member is absent, not undefined.
  declare readonly data?: JsonValue;

  constructor(code: number, message: string, data?: JsonValue) {
    if (!Number.isSafeInteger(code)) throw new TypeError(`RpcMethodError: code must be an integer, got ${String(code)}`);
    super(message);
    this.code = code;
    // exactOptionalPropertyTypes: leave the member absent rather than undefined, so "data" is omitted on the wire.
    if (data !== undefined) this.data = data;
  }
}
