import { responseEvidence } from './responseEvidence.js';
import { TransportError, type TransportErrorCode } from './TransportError.js';
import type { SentRequest } from './types.js';

/** What the failed exchange was: for the messages and the evidence. */
export interface FailedExchange {
  readonly sent: SentRequest;
  readonly timeoutMs: number;
}

/** Status and headers, when a response head had arrived before the failure. */
export interface PartialResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
}

// Socket-level failures before or during the exchange: the node is not reachable as configured, or the connection
// was reset or closed under the exchange (CLOSED_CODES, a subset: something answered the connection, then dropped it).
const CLOSED_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET']);
const REFUSED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN', 'EADDRNOTAVAIL', ...CLOSED_CODES]);

/**
 * Whether a failed exchange's connection was reset or closed under it (the node, or something between, dropped it
 * without a complete answer), as opposed to never made (refused, no route, no such host) or timed out.
 */
export function closedWithoutAnswer(error: TransportError): boolean {
  if (error.code !== 'REFUSED') return false;
  const code = errorCode(error.cause);
  return code !== undefined && CLOSED_CODES.has(code);
}
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * Maps a failed HTTP exchange to its TransportError: the timer or the caller's signal when one of
 * them fired (`reason`), whatever error the socket then surfaced; else the error's code
 * (REFUSED, TIMEOUT, or NETWORK for the rest).
 */
export function toTransportError(
  cause: unknown,
  reason: 'TIMEOUT' | 'ABORTED' | undefined,
  exchange: FailedExchange,
  partial: PartialResponse | undefined,
): TransportError {
  const url = exchange.sent.url;
  // When headers had arrived, the status is evidence too (the body is not kept: it was cut short).
  const response = partial === undefined ? undefined : responseEvidence(partial.status, partial.headers, '', 0, false);
  const make = (code: TransportErrorCode, message: string, details: string): TransportError =>
    new TransportError({ code, message, details, request: exchange.sent, response, cause });
  if (reason === 'TIMEOUT') {
    return make(
      'TIMEOUT',
      `No complete response from ${url} within ${exchange.timeoutMs} ms`,
      `The exchange (connect, request, response headers and body) took longer than timeoutMs=${exchange.timeoutMs}. Raise timeoutMs if the node is slow but alive.`,
    );
  }
  if (reason === 'ABORTED')
    return make('ABORTED', `Request to ${url} was aborted`, "The caller's AbortSignal fired before the exchange completed.");
  const code = errorCode(cause);
  const text = cause instanceof Error ? cause.message : String(cause);
  // undici's "bad response": the node answered, with bytes it would not read as a response (an unrequested
  // 100 Continue before the answer, which RFC 9110 §15.2 lets a server send; or not HTTP). Something answered: not
  // "is the node running?" (an outside tester's node, answering every call after a 100 Continue, was said down).
  if (code === 'UND_ERR_SOCKET' && /bad response/i.test(errorMessages(cause))) {
    return make(
      'NETWORK',
      `${url} answered with bytes this client does not read as an HTTP response (${code}: bad response)`,
      `${text}. The node answered, but not as an HTTP/1.1 response undici takes: an unrequested 1xx status (100 Continue) before the answer, which undici refuses, or bytes that are not HTTP.`,
    );
  }
  if (code !== undefined && CLOSED_CODES.has(code)) {
    // Not "could not reach": an outside tester's node, dropping the connection on one malformed call and answering
    // every other, was graded unreachable on it (the suite now fails a call closed twice while the node answers).
    return make(
      'REFUSED',
      `${url} closed the connection without a complete answer (${code})`,
      `${text}. The connection was reset or closed before the answer was read: the node (or a proxy between) dropped it, or the node is going down.`,
    );
  }
  if (code !== undefined && REFUSED_CODES.has(code)) {
    return make(
      'REFUSED',
      `Could not reach ${url} (${code})`,
      `${text}. Check that the node is running and that the base URL (host, port, scheme) is right.`,
    );
  }
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    return make('TIMEOUT', `No complete response from ${url} (${code})`, text);
  }
  return make('NETWORK', `HTTP exchange with ${url} failed${code === undefined ? '' : ` (${code})`}`, text);
}

/** The first error code found on the error, its cause chain, or an AggregateError's members (happy eyeballs). */
function errorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 4 || typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  if (error instanceof AggregateError) {
    for (const member of error.errors) {
      const found = errorCode(member, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return errorCode((error as { cause?: unknown }).cause, depth + 1);
}

/** The messages of an error and its causes, joined (undici puts "bad response" on a cause). */
function errorMessages(error: unknown, depth = 0): string {
  if (depth > 4 || !(error instanceof Error)) return '';
  return `${error.message} ${errorMessages((error as { cause?: unknown }).cause, depth + 1)}`;
}
