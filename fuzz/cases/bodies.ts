/**
 * Bodies that are not one well-formed request: top-level scalars and null, nesting from 1 to 10,000 levels
 * (as the body, in params, as the id), bytes that are not UTF-8 inside a string (or a whole body in UTF-16 or
 * Latin-1), a UTF-8 BOM before the JSON, garbage after a valid request, a valid request cut at a random byte,
 * an empty or blank body, and text that is almost JSON (comments, single quotes, NaN, leading zeros). Sizes are
 * clipped to the body cap.
 */
import type { JsonValue } from '../../core/json/index.js';
import { DEFAULT_MAX_DEPTH } from '../../core/json/index.js';
import type { Draft, Gen, Generator } from './generator.js';
import { callRequest, validCall, type Call } from './validCalls.js';
import { RawJson, bytesBody, jsonBody, objectOf, utf8, writeWire, type Wire } from './wire.js';

const concat = (...parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

function bytesDraft(rule: string, title: string, call: Call | undefined, bytes: Uint8Array, risky = false): Draft {
  return { rule, title, ...(call === undefined ? {} : { method: call.method }), body: bytesBody(bytes), risky: risky || (call?.risky ?? false) };
}

export const scalarBody: Generator = {
  rule: 'envelope/scalar',
  weight: 0.6,
  methodless: true,
  make(g) {
    const call = validCall(g);
    const [value, what] = g.draw.pick<[Wire, string]>([
      [1, '1'],
      [0, '0'],
      [-1, '-1'],
      [1.5, '1.5'],
      [2n ** 64n, '2^64'],
      [new RawJson('1E400'), '1E400'],
      ['x', 'a string'],
      ['', 'an empty string'],
      [true, 'true'],
      [false, 'false'],
      [null, 'null'],
      [writeWire(callRequest(g, call)), 'a request written as a JSON string'],
    ]);
    return { rule: 'envelope/scalar', title: `the body is ${what}`, body: jsonBody(value) };
  },
};

/** Text nested `depth` levels around `leaf`, and the value when core/json reads that deep. */
function nest(depth: number, arrays: boolean, leaf: JsonValue): { text: string; value?: JsonValue } {
  const leafText = writeWire(leaf);
  const text = arrays ? `${'['.repeat(depth)}${leafText}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}${leafText}${'}'.repeat(depth)}`;
  if (depth > DEFAULT_MAX_DEPTH - 8) return { text };
  let value = leaf;
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return { text, value };
}

export const deepBody: Generator = {
  rule: 'envelope/deep',
  weight: 0.8,
  make(g) {
    const call = validCall(g);
    const where = g.restricted ? g.draw.pick(['params', 'id', 'member'] as const) : g.draw.pick(['body', 'body', 'params', 'id', 'member'] as const);
    const arrays = g.draw.chance(0.6);
    const base = where === 'body' ? '' : writeWire(callRequest(g, call));
    const perLevel = arrays ? 2 : 6;
    const maxDepth = Math.min(10_000, Math.floor((g.room(base) - 32) / perLevel));
    if (maxDepth < 1) return undefined;
    const depth = g.draw.logInt(1, maxDepth);
    const nested = nest(depth, arrays, g.draw.pick<JsonValue>([1, null, [], {}]));
    // Within core/json's depth the value itself (the case keeps it as json); deeper, the text as it is.
    const deep: Wire = nested.value ?? new RawJson(nested.text);
    const title = `${depth} levels of ${arrays ? 'arrays' : 'objects'}`;
    if (where === 'body') return { rule: 'envelope/deep', title: `the body is ${title}`, body: jsonBody(deep), risky: true };
    const id = g.id();
    const value =
      where === 'params'
        ? objectOf([['jsonrpc', '2.0'], ['method', g.wire(call.method)], ['params', [deep]], ['id', id]])
        : where === 'id'
          ? objectOf([['jsonrpc', '2.0'], ['method', g.wire(call.method)], ['params', call.params], ['id', deep]])
          : objectOf([['jsonrpc', '2.0'], ['method', g.wire(call.method)], ['params', call.params], ['id', id], ['deep', deep]]);
    return { rule: 'envelope/deep', title: `${call.method}: ${where === 'member' ? 'an extra member' : where} of ${title}`, method: call.method, body: jsonBody(value), risky: true };
  },
};

/** Byte sequences that are not UTF-8, with their names. */
const NOT_UTF8: readonly [number[], string][] = [
  [[0xff], 'byte ff'],
  [[0xfe], 'byte fe'],
  [[0x80], 'a lone continuation byte'],
  [[0xc3], 'a cut two-byte sequence'],
  [[0xe2, 0x82], 'a cut three-byte sequence'],
  [[0xc0, 0xaf], 'an overlong "/"'],
  [[0xe0, 0x80, 0xaf], 'an overlong three-byte "/"'],
  [[0xed, 0xa0, 0x80], 'an encoded surrogate'],
  [[0xf4, 0x90, 0x80, 0x80], 'a code point above U+10FFFF'],
  [[0xf8, 0x88, 0x80, 0x80, 0x80], 'a five-byte sequence'],
  [[0xe9], 'Latin-1 "é"'],
];

const MARK = 'ZZFUZZMARKZZ';

export const notUtf8Body: Generator = {
  rule: 'envelope/not-utf8',
  weight: 0.8,
  make(g) {
    const call = validCall(g);
    if (g.draw.chance(0.2)) {
      const text = writeWire(callRequest(g, call, `é-${g.index}`));
      const [bytes, what] = g.draw.pick<[Uint8Array, string]>([
        [utf16(text, true, true), 'UTF-16LE with a BOM'],
        [utf16(text, false, true), 'UTF-16BE with a BOM'],
        [utf16(text, true, false), 'UTF-16LE without a BOM'],
        [Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff), 'Latin-1'],
      ]);
      return bytesDraft('envelope/not-utf8', `${call.method}: the body in ${what}`, call, bytes, true);
    }
    const where = g.draw.pick(['id', 'method', 'param', 'member'] as const);
    const first = call.params[0];
    const marked =
      where === 'method'
        ? objectOf([['jsonrpc', '2.0'], ['method', `${g.wire(call.method)}${MARK}`], ['params', call.params], ['id', g.id()]])
        : where === 'param' && typeof first === 'string'
          ? callRequest(g, { ...call, params: [`${first.slice(0, 8)}${MARK}${first.slice(8)}`, ...call.params.slice(1)] })
          : where === 'member'
            ? objectOf([...Object.entries(callRequest(g, call)), [MARK, 1]])
            : callRequest(g, call, `id${MARK}`);
    const [sequence, what] = g.draw.pick(NOT_UTF8);
    const parts = writeWire(marked).split(MARK);
    const bytes = concat(...parts.flatMap((p, i) => (i === 0 ? [utf8(p)] : [Uint8Array.from(sequence), utf8(p)])));
    return bytesDraft('envelope/not-utf8', `${call.method}: ${what} in ${where === 'param' && typeof first !== 'string' ? 'the id' : `the ${where}`}`, call, bytes, true);
  },
};

function utf16(text: string, little: boolean, bom: boolean): Uint8Array {
  const out = new Uint8Array((text.length + (bom ? 1 : 0)) * 2);
  const view = new DataView(out.buffer);
  let at = 0;
  if (bom) {
    view.setUint16(0, 0xfeff, little);
    at = 2;
  }
  for (let i = 0; i < text.length; i++, at += 2) view.setUint16(at, text.charCodeAt(i), little);
  return out;
}

export const bomBody: Generator = {
  rule: 'envelope/bom',
  weight: 0.5,
  make(g) {
    const call = validCall(g);
    const text = utf8(writeWire(callRequest(g, call)));
    const [prefix, what] = g.draw.pick<[number[], string]>([
      [[0xef, 0xbb, 0xbf], 'a UTF-8 BOM'],
      [[0xef, 0xbb, 0xbf], 'a UTF-8 BOM'],
      [[0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], 'two UTF-8 BOMs'],
      [[0xef, 0xbb, 0xbf, 0x20, 0x0a], 'a UTF-8 BOM and whitespace'],
      [[0x20, 0xef, 0xbb, 0xbf], 'a space, then a UTF-8 BOM'],
    ]);
    return bytesDraft('envelope/bom', `${call.method} after ${what}`, call, concat(Uint8Array.from(prefix), text));
  },
};

export const trailingBody: Generator = {
  rule: 'envelope/trailing',
  weight: 0.7,
  make(g) {
    const call = validCall(g);
    const text = writeWire(callRequest(g, call));
    const [garbage, what] = g.draw.pick<[string, string]>([
      ['x', '"x"'],
      ['}', 'a "}"'],
      [']', 'a "]"'],
      [',', 'a comma'],
      ['{}', 'an empty object'],
      ['null', 'null'],
      [text, 'the same request again'],
      [`\n${text}`, 'a second request on a new line'],
      ['\u0000', 'a NUL'],
      [' // comment', 'a comment'],
      ['\n\u0000garbage', 'garbage'],
    ]);
    return bytesDraft('envelope/trailing', `${call.method}, then ${what}`, call, utf8(text + garbage));
  },
};

export const truncatedBody: Generator = {
  rule: 'envelope/truncated',
  weight: 0.9,
  make(g) {
    const call = validCall(g);
    const value = g.draw.chance(0.25) ? [callRequest(g, call, 1), callRequest(g, validCall(g), 2)] : callRequest(g, call);
    const bytes = utf8(writeWire(value));
    const cut = g.draw.int(1, bytes.length - 1);
    return bytesDraft('envelope/truncated', `${call.method}${Array.isArray(value) ? ' (a batch)' : ''} cut after ${cut} of ${bytes.length} bytes`, call, bytes.subarray(0, cut));
  },
};

export const emptyBody: Generator = {
  rule: 'envelope/empty',
  weight: 0.4,
  methodless: true,
  make(g) {
    const [text, what] = g.draw.pick<[string, string]>([
      ['', 'empty'],
      ['', 'empty'],
      [' ', 'one space'],
      ['\r\n', 'a line break'],
      ['\t\n  ', 'whitespace'],
    ]);
    return bytesDraft('envelope/empty', `the body is ${what}`, undefined, utf8(text));
  },
};

/** Texts that are almost JSON, some around the case's call. */
function almostJson(g: Gen, call: Call): [string, string, boolean][] {
  const wire = JSON.stringify(g.wire(call.method));
  const params = writeWire(call.params);
  return [
    [`{jsonrpc:"2.0",method:${wire},params:${params},id:1}`, 'unquoted keys', true],
    [`{'jsonrpc':'2.0','method':${wire.replace(/"/g, "'")},'params':${params},'id':1}`, 'single quotes', true],
    [`{"jsonrpc":"2.0","method":${wire},"params":${params},"id":1,}`, 'a trailing comma', true],
    [`/* call */ {"jsonrpc":"2.0","method":${wire},"params":${params},"id":1}`, 'a comment', true],
    [`{"jsonrpc":"2.0","method":${wire},"params":${params},"id":NaN}`, 'id NaN', true],
    [`{"jsonrpc":"2.0","method":${wire},"params":${params},"id":Infinity}`, 'id Infinity', true],
    [`{"jsonrpc":"2.0","method":${wire},"params":${params},"id":007}`, 'id 007 (leading zeros)', true],
    [`{"jsonrpc":"2.0","method":${wire},"params":${params},"id":+1}`, 'id +1', true],
    [`{"jsonrpc":"2.0","method":${wire},"params":[007],"id":1}`, 'params [007] (leading zeros)', true],
    [`{"jsonrpc":"2.0","method":${wire},"params":[-],"id":1}`, 'params [-]', true],
    [`{"jsonrpc":"2.0","method":${wire},"params":${params},"id":.5}`, 'id .5', true],
    [`{"jsonrpc":"2.0","method":${wire},"params":${params},"id":0x10}`, 'id 0x10', true],
    [`{"jsonrpc":"2.0","method":${wire},"params":${params},"id":undefined}`, 'id undefined', true],
    [`{"jsonrpc":"2.0","method":"${g.wire(call.method)}\n","params":${params},"id":1}`, 'a raw line break in a string', true],
    [`{"jsonrpc":"2.0","method":${wire},"params":${params},"id":"\\x41"}`, 'an invalid escape', true],
    [`{"jsonrpc":"2.0","method":${wire},"params":${params},"id":"\\u12"}`, 'a short \\u escape', true],
    [`{"jsonrpc":"2.0","method":${wire},"params":${params},"id":"open}`, 'an unterminated string', true],
    [`{"jsonrpc":"2.0","method":${wire},"params":${params},"id":1]`, 'mismatched brackets', true],
    ['{', 'a lone "{"', false],
    ['[', 'a lone "["', false],
    ['foo', 'a bare word', false],
    ['{]', '"{]"', false],
    ['jsonrpc=2.0&method=x', 'a form', false],
  ];
}

export const notJsonBody: Generator = {
  rule: 'envelope/not-json',
  weight: 0.8,
  make(g) {
    const call = validCall(g);
    const texts = almostJson(g, call).filter(([, , calls]) => calls || !g.restricted);
    if (g.draw.chance(0.1) && !g.restricted) {
      const bytes = g.draw.bytes(g.draw.logInt(1, Math.min(4096, g.room(0))));
      return bytesDraft('envelope/not-json', `${bytes.length} random bytes`, undefined, bytes);
    }
    const [text, what, calls] = g.draw.pick(texts);
    return bytesDraft('envelope/not-json', calls ? `${call.method}: ${what}` : what, calls ? call : undefined, utf8(text));
  },
};

export const BODY_GENERATORS: readonly Generator[] = [scalarBody, deepBody, notUtf8Body, bomBody, trailingBody, truncatedBody, emptyBody, notJsonBody];
