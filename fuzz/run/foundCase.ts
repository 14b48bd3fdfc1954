/**
 * A case as a finding keeps it: the exact bytes (base64, and as text when they are UTF-8), the answer, and a
 * curl command that sends the same bytes to the same endpoint, so a node team can reproduce it without chainrpc.
 */
import type { FoundCase, FuzzAnswer, FuzzCase } from '../model.js';

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
