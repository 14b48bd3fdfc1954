/**
 * The http family (rare): the request line and headers varied around a valid call. Other HTTP methods (GET,
 * PUT, DELETE, OPTIONS, HEAD, PATCH) with and without a body, other content types (none, text/plain, with a
 * charset, a form, odd spellings), and a POST with no body and no Content-Length. The path is the profile's
 * rpcPath, which the runner adds.
 */
import type { Draft, Generator } from './generator.js';
import { callRequest, validCall } from './validCalls.js';
import { bytesBody, jsonBody } from './wire.js';

const JSON_TYPE = 'application/json';

export const httpMethod: Generator = {
  rule: 'http/method',
  weight: 1,
  make(g): Draft {
    const method = g.draw.pick(['GET', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH']);
    const call = validCall(g);
    if (!g.restricted && g.draw.chance(0.35)) {
      return { rule: 'http/method', title: `${method} without a body`, body: bytesBody(new Uint8Array(0)), http: { method, contentType: g.draw.chance(0.5) ? JSON_TYPE : undefined } };
    }
    return { rule: 'http/method', title: `${method} with a ${call.method} call`, method: call.method, body: jsonBody(callRequest(g, call)), http: { method, contentType: JSON_TYPE }, risky: call.risky };
  },
};

const CONTENT_TYPES: readonly (string | undefined)[] = [
  undefined,
  'text/plain',
  'text/plain; charset=utf-8',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json-rpc',
  'application/jsonrequest',
  'application/octet-stream',
  'application/jsonx',
  '',
  'application/json, text/plain',
];

export const httpContentType: Generator = {
  rule: 'http/content-type',
  weight: 1.5,
  make(g): Draft {
    const contentType = g.draw.pick(CONTENT_TYPES);
    const call = validCall(g);
    return {
      rule: 'http/content-type',
      title: `${call.method} call sent as ${contentType === undefined ? 'no content type' : JSON.stringify(contentType)}`,
      method: call.method,
      body: jsonBody(callRequest(g, call)),
      http: { method: 'POST', contentType },
      risky: call.risky,
    };
  },
};

export const httpNoBody: Generator = {
  rule: 'http/no-body',
  weight: 0.7,
  methodless: true,
  make(g): Draft {
    const contentType = g.draw.chance(0.7) ? JSON_TYPE : undefined;
    return { rule: 'http/no-body', title: `POST with no body and no Content-Length${contentType === undefined ? ', no content type' : ''}`, body: bytesBody(new Uint8Array(0)), http: { method: 'POST', contentType, omitContentLength: true } };
  },
};

export const HTTP_GENERATORS: readonly Generator[] = [httpMethod, httpContentType, httpNoBody];
