import type { JsonValue } from '../../core/json/index.js';

/** What a handler knows about the call besides its params. */
export interface CallContext {
  /** The client's IP address as the socket reports it ('' when unknown, e.g. in a direct handleRpcBody call). */
  readonly remoteAddress: string;
  /** A notification (JSON-RPC 2.0 §4.1): the method runs, but nothing it returns or throws is sent. */
  readonly isNotification: boolean;
}

/**
 * One JSON-RPC method. `params` is always positional (an absent params is []); when the method has a
 * schema under schemas/methods/, params have already been validated against it. Return the result, or
 * throw RpcMethodError to answer with an error object.
 */
export type MethodHandler = ((params: JsonValue[], ctx: CallContext) => JsonValue | Promise<JsonValue>) & {
  /**
   * Optional: told of each call of this method in a batch, with its params as sent (not validated), before the
   * batch's calls run one after the other (docs/transport.md, "Batches"). It may start work that no client can
   * see (a signature's verification on the thread pool) so that a call later in the batch does not wait for it
   * at its turn. It changes no state, and what it throws is ignored.
   */
  readonly prepare?: (params: JsonValue | undefined) => void;
};

/**
 * The methods a server offers, by wire name. Only own properties count (never Object.prototype's). The
 * dispatcher reads a table once, at its first call: to change what a server offers, give it a new table
 * (setMethods), never change one in place.
 */
export type MethodTable = Readonly<Record<string, MethodHandler>>;

/** Whether a call ended in a result or an error object (sent or, for a notification, not). */
export type CallOutcome = 'result' | 'error';

/** Called once per dispatched call: a valid request (§4) naming a method of the table. */
export type OnCall = (method: string, outcome: CallOutcome) => void;

/**
 * Called once per request object the dispatcher settles, for a node's metrics: every call answered or run as a
 * notification, and every refusal of a request it could not dispatch (a name the table lacks, an invalid
 * request, a body that is not JSON, a batch refused whole: one each). `method` is a name of the method table,
 * else null: a client may send any string, so only the table's names are told, which keeps them few. `code` is
 * the JSON-RPC error code, null for a result. `seconds` runs from the request object's turn in the dispatcher
 * (for a body that is one request or is refused whole, from the body's, its parse included) to its outcome; 0
 * when the dispatcher never saw it.
 */
export type OnSettled = (method: string | null, code: number | null, seconds: number) => void;

/** A text served beside JSON-RPC at GET /metrics (the node's Prometheus metrics). */
export interface MetricsSource {
  /** The answer's Content-Type. */
  readonly contentType: string;
  /** The text as of now; read anew for every request. */
  text(): Promise<string>;
}
