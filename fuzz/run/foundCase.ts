/**
 * A case as a finding keeps it: the exact bytes (base64, and as text when they are UTF-8), the answer, and a
 * curl command that sends the same bytes to the same endpoint, so a node team can reproduce it without chainrpc.
 */
import { parseJson, stringifyJson, type JsonValue } from '../../core/json/index.js';
import type { FoundCase, FuzzAnswer, FuzzCase, FuzzHttp } from '../model.js';

// ignoreBOM: a byte order mark the body opens with stays in its text (a decoder that drops it would lose bytes).
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as text when they are valid UTF-8 with no control characters but tab and line breaks; else undefined. */
export function bodyText(body: Uint8Array): string | undefined {
  try {
    const text = utf8.decode(body);
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? undefined : text;
  } catch {
    return undefined;
  }
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** A curl command sending exactly `c`'s request to `endpoint` (the node's JSON-RPC URL). */
export function curlOf(c: Pick<FuzzCase, 'http'>, endpoint: string): string {
  const { method, contentType, body, omitContentLength } = c.http;
  const head = ['curl', '-sS', '-i', '-X', method, ...(contentType === undefined ? ['-H', shellQuote('content-type:')] : ['-H', shellQuote(`content-type: ${contentType}`)])];
  if (omitContentLength === true || body.length === 0) return [...head, shellQuote(endpoint)].join(' ');
  const text = bodyText(body);
  // A byte order mark (or any U+FEFF) is invisible in a shell's quotes: such a body goes through base64 below.
  if (text !== undefined && text.length <= 2_000 && !text.includes('\n') && !text.includes('\uFEFF')) return [...head, '--data-binary', shellQuote(text), shellQuote(endpoint)].join(' ');
  // Bytes a shell cannot quote faithfully (or too many for a command line): through base64.
  return `echo ${Buffer.from(body).toString('base64')} | base64 -d | ${[...head, '--data-binary', '@-', shellQuote(endpoint)].join(' ')}`;
}

export function foundCase(c: FuzzCase, answer: FuzzAnswer, endpoint: string): FoundCase {
  const text = bodyText(c.http.body);
  return {
    seed: c.seed,
    index: c.index,
    rule: c.rule,
    title: c.title,
    http: {
      method: c.http.method,
      contentType: c.http.contentType,
      bodyBase64: Buffer.from(c.http.body).toString('base64'),
      ...(text === undefined ? {} : { bodyText: text }),
      ...(c.http.omitContentLength === true ? { omitContentLength: true } : {}),
    },
    answer: { ...answer, ...(answer.text !== undefined && answer.text.length > 4_000 ? { text: `${answer.text.slice(0, 4_000)}… (${answer.text.length} characters)` } : {}) },
    curl: curlOf(c, endpoint),
  };
}

/** The request of a found case, back as bytes (what --replay sends). */
export function httpOf(found: FoundCase): FuzzCase['http'] {
  return {
    method: found.http.method,
    contentType: found.http.contentType,
    body: new Uint8Array(Buffer.from(found.http.bodyBase64, 'base64')),
    ...(found.http.omitContentLength === true ? { omitContentLength: true } : {}),
  };
}

/** A value in a few characters, for a title: JSON, cut at 40. */
function shortJson(v: JsonValue): string {
  const text = stringifyJson(v);
  return text.length <= 40 ? text : `${text.slice(0, 39)}…`;
}

const typeOf = (v: JsonValue): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v === 'bigint' ? 'a number' : `a ${typeof v}`);

/** One request object in a few words: its method, its params, its id, and what else is odd about it. */
function describeRequest(v: JsonValue): string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${typeOf(v)} (${shortJson(v)}), not a request object`;
  const parts: string[] = [];
  const method = v.method;
  if (method === undefined) parts.push('no method');
  else if (typeof method !== 'string') parts.push(`method ${typeOf(method)} (${shortJson(method)})`);
  else parts.push(/^[\w.:-]{1,60}$/.test(method) ? method : `method ${shortJson(method)}`);
  const params = v.params;
  if (params === undefined) parts.push('no params');
  else if (Array.isArray(params)) parts.push(params.length === 0 ? 'params []' : `${params.length} ${params.length === 1 ? 'param' : 'params'} ${shortJson(params)}`);
  else if (typeof params === 'object' && params !== null) parts.push(Object.keys(params).length === 0 ? 'params {}' : `params by name ${shortJson(params)}`);
  else parts.push(`params ${typeOf(params)} (${shortJson(params)})`);
  parts.push(v.id === undefined ? 'no id (a notification)' : `id ${shortJson(v.id)}`);
  if (v.jsonrpc === undefined) parts.push('no "jsonrpc"');
  else if (v.jsonrpc !== '2.0') parts.push(`"jsonrpc" ${shortJson(v.jsonrpc)}`);
  const other = Object.keys(v).filter((k) => !['jsonrpc', 'method', 'params', 'id'].includes(k));
  if (other.length > 0) parts.push(`also ${other.map((k) => JSON.stringify(k)).join(', ')}`);
  return parts.join(', ');
}

/**
 * What a request is, read from its bytes alone (not from the case it was made as): "chain_getAccount, no params,
 * id """, "batch of 2: …", "11 bytes, not UTF-8". What a shrunk case is called: shrinking changes the request, so
 * the title its original was made with ("one param too many") may no longer be true of it.
 */
export function describeHttp(http: FuzzHttp): string {
  const head = http.method === 'POST' ? '' : `${http.method}: `;
  if (http.omitContentLength === true) return `${head}no Content-Length (so no body)`;
  if (http.body.length === 0) return `${head}no body`;
  const text = bodyText(http.body);
  if (text === undefined) return `${head}${http.body.length} ${http.body.length === 1 ? 'byte' : 'bytes'}, not UTF-8 text`;
  let json: JsonValue;
  try {
    json = parseJson(text);
  } catch {
    return `${head}${http.body.length} ${http.body.length === 1 ? 'byte' : 'bytes'} that are not JSON`;
  }
  if (!Array.isArray(json)) return `${head}${describeRequest(json)}`;
  if (json.length === 0) return `${head}an empty batch ([])`;
  const shown = json.slice(0, 3).map(describeRequest);
  return `${head}batch of ${json.length}: ${shown.join('; ')}${json.length > shown.length ? `; … (${json.length - shown.length} more)` : ''}`;
}

/** The words that join a shrunk case's own description to its original's title (TITLE_OF_SHRUNK). */
export const SHRUNK_FROM = ' (shrunk from: ';

/**
 * The title of a minimal case: its original's when shrinking left the request as it was; else what the request
 * now is (describeHttp), and the title of the case it was shrunk from. `cut`: shrinking stopped at the time budget.
 */
export function minimalTitle(original: Pick<FuzzCase, 'title' | 'http'>, minimal: FuzzHttp, cut: boolean): string {
  const changed = !sameRequest(original.http, minimal);
  const title = changed ? `${describeHttp(minimal)}${SHRUNK_FROM}${original.title})` : original.title;
  return `${title}${cut ? ' (shrinking cut short by the time budget)' : ''}`;
}

const sameRequest = (a: FuzzHttp, b: FuzzHttp): boolean =>
  a.method === b.method && a.contentType === b.contentType && (a.omitContentLength === true) === (b.omitContentLength === true) && a.body.length === b.body.length && Buffer.from(a.body).equals(Buffer.from(b.body));
