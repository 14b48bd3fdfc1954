import type { Exchange } from '../model.js';
import { shellQuote } from './shellQuote.js';

// curl computes these itself from what it sends; copying them would make the replay lie about framing.
const CURL_OWNS = new Set(['content-length', 'host', 'connection', 'keep-alive', 'transfer-encoding', 'expect']);

// What may appear literally in a pasted single-quoted word: letters, marks, numbers, punctuation, symbols
// and the plain space. Controls (tab triggers completion, CR/ESC confuse terminals), format characters
// (bidi overrides hide what a command does) and other spaces are not; NUL cannot be in an argument at all.
const PASTEABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]*$/u;

/**
 * A ready-to-paste POSIX shell command that repeats an exchange with curl:
 *
 *   curl -sS -X POST 'http://host/rpc' -H 'content-type: application/json' --data-binary '{"jsonrpc":"2.0",...}'
 *
 * A body that is not plain printable text is piped in through printf with octal escapes
 * (`printf '\001...' | curl ... --data-binary @-`), so every byte, NUL included, reaches the node as sent.
 * Bodies are text (see Exchange.request.body); they are sent as their UTF-8 bytes.
 */
export function curlFor(exchange: Exchange): string {
  const { method, url, headers, body } = exchange.request;
  // A plain method name needs no quotes; anything else a transport check might send gets them.
  const words = ['curl', '-sS', '-X', /^[A-Za-z]+$/.test(method) ? method : shellQuote(method), shellQuote(url)];
  for (const [name, value] of Object.entries(headers)) {
    if (!CURL_OWNS.has(name.toLowerCase())) words.push('-H', shellQuote(`${name}: ${value}`));
  }
  // An empty body is sent as one (Content-Length: 0); only a request sent with no body at all has no data flag.
  if (body === '') return exchange.request.bodyless === true || !/^(POST|PUT|PATCH)$/i.test(method) ? words.join(' ') : [...words, '--data-binary', "''"].join(' ');
  if (PASTEABLE.test(body)) return [...words, '--data-binary', shellQuote(body)].join(' ');
  return `printf ${printfFormat(body)} | ${[...words, '--data-binary', '@-'].join(' ')}`;
}

/**
 * A single-quoted printf format that writes exactly the UTF-8 bytes of `text`: printable ASCII as is,
 * every other byte (and ', %, \) as a three-digit octal escape, which POSIX printf turns into that byte.
 * Always three digits, so a digit that follows is never read as part of the escape.
 */
function printfFormat(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const literal = byte >= 0x20 && byte <= 0x7e && byte !== 0x27 && byte !== 0x25 && byte !== 0x5c;
    // A leading "-" would be read as an option by some printf builtins.
    out += literal && !(out === '' && byte === 0x2d) ? String.fromCharCode(byte) : `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `'${out}'`;
}
