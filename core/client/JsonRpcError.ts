import { ChainrpcError } from '../errors/ChainrpcError.js';
import type { JsonValue } from '../json/index.js';
import { stringifyJson } from '../json/stringifyJson.js';
import type { JsonRpcErrorObject, ResponseEvidence, SentRequest } from './types.js';

export interface JsonRpcErrorParams {
  readonly error: JsonRpcErrorObject;
  /** The JSON-RPC method called, or 'batch' when the node rejected a whole batch. */
  readonly method: string;
  /** The id sent; null when the node rejected a whole batch. */
  readonly id: number | null;
  readonly request: SentRequest;
  readonly response: ResponseEvidence;
}

/**
 * The node answered with a well-formed JSON-RPC 2.0 error object (JSON-RPC 2.0 §5.1). The
 * exchange worked; the node said no. Transport and protocol failures are TransportError instead.
 */
export class JsonRpcError extends ChainrpcError {
  override readonly name = 'JsonRpcError';
  readonly kind = 'node';
  readonly code: number;
  /** The node's `error.message`. */
  readonly rpcMessage: string;
  /** The node's `error.data`; undefined when it sent none. */
  readonly data: JsonValue | undefined;
  /** The whole error object as the node sent it. */
  readonly error: JsonRpcErrorObject;
  readonly method: string;
  readonly id: number | null;
  override readonly details: string;
  readonly request: SentRequest;
  /** Status, headers and a body excerpt of the answer. */
  readonly response: ResponseEvidence;

  constructor(params: JsonRpcErrorParams) {
    const { error } = params;
    super(`${params.method}: JSON-RPC error ${error.code}: ${clip(error.message, 200)}`);
    this.code = error.code;
    this.rpcMessage = error.message;
    this.data = error.data;
    this.error = error;
    this.method = params.method;
    this.id = params.id;
    this.request = params.request;
    this.response = params.response;
    this.details =
      `The node answered ${params.id === null ? 'the batch' : `request id ${params.id}`} with an error object (HTTP ${params.response.status}): ` +
      clip(params.response.excerpt, 500);
  }

  /** What the CLI prints: the message and the error object as the node sent it. */
  override explain(): string {
    return `${this.message}\n${stringifyJson(this.error)}`;
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * An error page in JSON-RPC's form rather than an answer to the call: an HTTP status outside 2xx with an error for no
 * call (id null), as a server gives for a path it does not serve (the reference node's 404 at any path but /rpc). The
 * endpoint path is then likely the wrong one, not the call.
 */
export function isErrorPage(err: JsonRpcError): boolean {
  const status = err.response.status;
  return (status < 200 || status >= 300) && /"id"\s*:\s*null/.test(err.response.excerpt);
}
