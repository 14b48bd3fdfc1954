import { ChainrpcError } from '../errors/ChainrpcError.js';
import type { ResponseEvidence, SentRequest } from './types.js';

/**
 * Stable codes of the transport/protocol family: the exchange failed or the answer was not a
 * JSON-RPC 2.0 response at all. Kept apart from JsonRpcError (the node answered with a
 * well-formed error object) so a run can tell a wrong node from a failing network or tool.
 */
export type TransportErrorCode =
  /** No connection: refused, reset, DNS failure, host unreachable, socket closed by the peer. */
  | 'REFUSED'
  /** The exchange did not finish within its timeout (connect, headers or body). */
  | 'TIMEOUT'
  /** The caller's AbortSignal fired. */
  | 'ABORTED'
  /** The response body exceeded the size cap; the rest was not read. */
  | 'BODY_TOO_LARGE'
  /** A 2xx response whose body is not JSON. */
  | 'NOT_JSON'
  /** A non-2xx response with no JSON-RPC response in its body. */
  | 'HTTP_STATUS'
  /** JSON that is not a valid JSON-RPC 2.0 response to this request (see `details`, `batchIds`). */
  | 'BAD_RESPONSE'
  /** Any other transport failure: malformed HTTP, TLS error, an unexpected undici error. */
  | 'NETWORK';

/** Which ids of a batch went wrong, when code is BAD_RESPONSE for a batch. */
export interface BatchIdProblems {
  /** Sent, but no response carried the id. */
  readonly missing: readonly number[];
  /** Sent, and more than one response carried the id. */
  readonly duplicated: readonly number[];
  /** Carried by a response, but never sent (null included: the node could not tell the id). */
  readonly unexpected: readonly unknown[];
}

export interface TransportErrorParams {
  readonly code: TransportErrorCode;
  readonly message: string;
  readonly details: string;
  readonly request: SentRequest;
  readonly response?: ResponseEvidence | undefined;
  readonly batchIds?: BatchIdProblems | undefined;
  readonly cause?: unknown;
}

export class TransportError extends ChainrpcError {
  override readonly name = 'TransportError';
  readonly kind = 'target';
  readonly code: TransportErrorCode;
  /** The longer explanation: what exactly was wrong and, where it helps, how to fix it. */
  override readonly details: string;
  /** The HTTP request that was sent. */
  readonly request: SentRequest;
  /** What came back, when anything did. */
  readonly response: ResponseEvidence | undefined;
  readonly batchIds: BatchIdProblems | undefined;

  constructor(params: TransportErrorParams) {
    super(params.message, { cause: params.cause, details: params.details });
    this.code = params.code;
    this.details = params.details;
    this.request = params.request;
    this.response = params.response;
    this.batchIds = params.batchIds;
  }
}
