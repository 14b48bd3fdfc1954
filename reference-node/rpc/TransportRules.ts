import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { JsonValue } from '../../core/json/index.js';
import { validators } from '../../core/schema/validators.js';
import { invalidParamsReason } from './invalidParamsReason.js';

/** An HTTP answer a rule gives instead of the usual one. */
export interface HttpAnswer {
  readonly status: number;
  readonly body: string;
  readonly contentType: string;
}

/** What a rule that takes over an exchange may use: the server, the response, the log. */
export interface Exchange {
  readonly server: Server;
  readonly res: ServerResponse;
  readonly log: (line: string) => void;
}

/** The verdict on a call's params, before its handler runs. */
export type ParamsVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly errors: JsonValue[] };

/**
 * The transport's choices as data: docs/transport.md in code. The server (createRpcServer.ts) and the
 * dispatcher (handleRpcBody.ts) read every choice below from here and decide nothing of this kind
 * themselves. An honest node runs REFERENCE_TRANSPORT_RULES; another set of rules is a deliberate
 * variant (the fault layer above the node builds them for the suite's proof: ARCHITECTURE.md).
 */
export interface TransportRules {
  // ---- HTTP (docs/transport.md, "HTTP status policy") ----

  /** What a request with this HTTP method gets on the RPC path: served, refused with 405 and `Allow: POST`, or a 200 -32600 answer. */
  httpMethod(method: string | undefined): 'serve' | 'refuse' | 'invalid-request';
  /** Whether the Content-Type header names JSON (else 415). */
  acceptsContentType(value: string | undefined): boolean;
  /** An answer given before the body is read, after the method, content type and size checks; undefined: read the body. */
  readonly beforeBody: ((req: IncomingMessage) => HttpAnswer | undefined) | undefined;
  /** Sees the body's text first; true when it has answered (or dropped) the exchange itself. */
  readonly takeOver: ((text: string, exchange: Exchange) => boolean) | undefined;
  /** The HTTP status of a JSON-RPC answer (docs/transport.md: 200, errors included). */
  answerStatus(text: string): number;
  /** The Content-Type of a JSON-RPC answer. */
  readonly answerContentType: string;

  // ---- JSON-RPC 2.0 (docs/transport.md, "The dispatcher's rules") ----

  /** A request whose id is null: a request to answer (§4), a notification, or an invalid request. */
  readonly nullId: 'request' | 'notification' | 'invalid';
  /** Whether notifications get an answer (§4.1: never). */
  readonly answerNotifications: boolean;
  /** By-name (object) params: refused with -32602 (profile: positional only), or their values read as positional. */
  readonly byNameParams: 'refused' | 'values';
  /** The params check every call passes before its handler runs (the method's schema, core/schema/validators.ts). */
  checkParams(method: string, params: JsonValue[]): ParamsVerdict;
  /** Rewrites the whole answer text (null: nothing to send), seeing the request's text; undefined: answers are sent as made. */
  readonly rewriteAnswer: ((answer: string | null, request: string) => string | null) | undefined;
}

export const JSON_TYPE = 'application/json';

/** `application/json`, any case, optionally with parameters (`; charset=utf-8`). */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === JSON_TYPE) return true;
  if (value === undefined) return false;
  const semicolon = value.indexOf(';');
  return (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase() === JSON_TYPE;
}

const PARAMS_OK: ParamsVerdict = Object.freeze({ ok: true });

/** The params check against the method's schema under schemas/methods/; a method without one takes any params. */
export function schemaParamsCheck(method: string, params: JsonValue[]): ParamsVerdict {
  const v = validators();
  const schema = v.method(method);
  if (schema === undefined) return PARAMS_OK;
  const validation = v.params(method, params);
  if (validation.ok) return PARAMS_OK;
  const errors = validation.problems.map((p) => ({ pointer: p.pointer, rule: p.rule, message: p.message }));
  return { ok: false, reason: invalidParamsReason(schema, params.length, validation.problems), errors };
}

/** The reference profile's transport (docs/transport.md, docs/reference-profile.md#transport). */
export const REFERENCE_TRANSPORT_RULES: TransportRules = Object.freeze({
  httpMethod: (method: string | undefined) => (method === 'POST' ? 'serve' : 'refuse'),
  acceptsContentType: isJsonContentType,
  beforeBody: undefined,
  takeOver: undefined,
  answerStatus: () => 200,
  answerContentType: JSON_TYPE,
  nullId: 'request',
  answerNotifications: false,
  byNameParams: 'refused',
  checkParams: schemaParamsCheck,
  rewriteAnswer: undefined,
} satisfies TransportRules);
