import { stringifyJson } from '../../core/json/index.js';
import type { JsonValue } from '../../core/json/index.js';

/** A request id as JSON-RPC 2.0 §4 allows it: string, number (bigint beyond 2^53) or null. */
export type RpcId = string | number | bigint | null;

/** The codes this layer answers with itself (docs/error-codes.md). Messages are JSON-RPC 2.0 §5.1's. */
export const RPC_ERROR = {
  parseError: { code: -32700, message: 'Parse error' },
  invalidRequest: { code: -32600, message: 'Invalid Request' },
  methodNotFound: { code: -32601, message: 'Method not found' },
  invalidParams: { code: -32602, message: 'Invalid params' },
  internalError: { code: -32603, message: 'Internal error' },
  batchTooLarge: { code: -32013, message: 'Batch too large' },
} as const;

export type RpcErrorKind = keyof typeof RPC_ERROR;

/**
 * The text of one JSON-RPC 2.0 error response (§5, §5.1): exactly `jsonrpc`, `id`, `error`, in that
 * order. Written by hand so that the member set can never vary; stringifyJson keeps bigint ids exact.
 */
export function errorResponse(id: RpcId, code: number, message: string, data?: JsonValue): string {
  const error = data === undefined ? { code, message } : { code, message, data };
  return `{"jsonrpc":"2.0","id":${stringifyJson(id)},"error":${stringifyJson(error)}}`;
}

/** errorResponse for one of this layer's own codes, with `data: {reason, ...extra}`. */
export function standardError(kind: RpcErrorKind, id: RpcId, reason: string, extra: Record<string, JsonValue> = {}): string {
  const { code, message } = RPC_ERROR[kind];
  return errorResponse(id, code, message, { reason, ...extra });
}
