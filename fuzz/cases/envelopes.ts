/**
 * Envelope mutations of one request object (the envelope family, batches and raw bodies aside): each member
 * missing, of every other JSON type, or of an odd value (`jsonrpc` "1.0", method `__proto__` or 10 KB long,
 * ids of every type and size), extra and reordered members, duplicate keys in the JSON text, escapes where
 * plain characters would do, a notification, and a valid call padded to just under the body cap. Each starts
 * from a valid call (validCalls.ts), so one member at a time is odd.
 */
import { SPEC_PREFIX } from '../../profile/Profile.js';
import type { Draft, Gen, Generator } from './generator.js';
import { idValues } from './plausibleValues.js';
import { NO_ID, callRequest, validCall, type Call } from './validCalls.js';
import { Members, RawJson, byteLength, isPlainWire, jsonBody, objectOf, utf8, writeWire, type Body, type Wire } from './wire.js';

type Entry = [string, Wire];

/** The request object's members in their usual order. */
function entriesOf(g: Gen, call: Call, id: Wire | typeof NO_ID = g.id()): Entry[] {
  const entries: Entry[] = [['jsonrpc', '2.0'], ['method', g.wire(call.method)], ['params', call.params]];
  if (id !== NO_ID) entries.push(['id', id]);
  return entries;
}

/** `entries` with `key` set to `value`, or removed (undefined). */
function withMember(entries: Entry[], key: string, value: Wire | undefined): Entry[] {
  if (value === undefined) return entries.filter(([k]) => k !== key);
  return entries.some(([k]) => k === key) ? entries.map(([k, v]): Entry => [k, k === key ? value : v]) : [...entries, [key, value]];
}

function draft(rule: string, title: string, call: Call | undefined, value: Wire, risky = false): Draft {
  return { rule, title, ...(call === undefined ? {} : { method: call.method }), body: jsonBody(value), risky: risky || (call?.risky ?? false) };
}

function jsonrpcVariants(): [Wire | undefined, string][] {
  return [
    [undefined, 'missing'],
    ['1.0', '"1.0"'],
    ['2', '"2"'],
    ['2.00', '"2.00"'],
    [' 2.0', '" 2.0"'],
    ['2.0 ', '"2.0 "'],
    ['', 'empty'],
    ['2.0\u0000', '"2.0" and a NUL'],
    ['２.０', 'in full-width digits'],
    ['3.0', '"3.0"'],
    ['JSON-RPC/2.0', '"JSON-RPC/2.0"'],
    [new RawJson('2.0'), 'the number 2.0'],
    [2, 'the number 2'],
    [null, 'null'],
    [true, 'true'],
    [['2.0'], 'an array'],
    [{ version: '2.0' }, 'an object'],
  ];
}

export const jsonrpcMember: Generator = {
  rule: 'envelope/jsonrpc',
  weight: 1,
  make(g) {
    const call = validCall(g);
    const [value, what] = g.draw.pick(jsonrpcVariants());
    return draft('envelope/jsonrpc', `${call.method}: jsonrpc ${what}`, call, objectOf(withMember(entriesOf(g, call), 'jsonrpc', value)));
  },
};

function methodVariants(wire: string, specName: string): [Wire | undefined, string][] {
  const variants: [Wire | undefined, string][] = [
    [undefined, 'missing'],
    ['', 'empty'],
    ['__proto__', '__proto__'],
    ['constructor', 'constructor'],
    ['toString', 'toString'],
    ['hasOwnProperty', 'hasOwnProperty'],
    ['valueOf', 'valueOf'],
    ['rpc.', '"rpc."'],
    ['rpc.nope', 'a reserved rpc. name'],
    [wire.toUpperCase(), 'in upper case'],
    [` ${wire}`, 'with a leading space'],
    [`${wire} `, 'with a trailing space'],
    [`${wire}\u0000`, 'with a NUL after it'],
    [`${wire}\n`, 'with a newline after it'],
    [wire + wire, 'written twice'],
    [`${wire.slice(0, -1)}ö`, 'with an umlaut'],
    ['метод', 'in Cyrillic'],
    ['😀', 'an emoji'],
    [SPEC_PREFIX, 'the bare prefix'],
    [`${SPEC_PREFIX}doesNotExist`, 'unknown'],
    [1, 'a number'],
    [null, 'null'],
    [true, 'a boolean'],
    [[wire], 'an array'],
    [{ name: wire }, 'an object'],
  ];
  if (specName !== wire) variants.push([specName, `the spec's name (${specName}) where the node names it ${wire}`]);
  return variants;
}

export const methodMember: Generator = {
  rule: 'envelope/method',
  weight: 1.2,
  methodless: true,
  make(g) {
    const call = validCall(g);
    const entries = entriesOf(g, call);
    if (g.draw.chance(0.06)) {
      // rpc.discover takes no params: sent with the ones of another method's call, as a name a method table may lack.
      return draft('envelope/method', 'method rpc.discover', { ...call, method: 'rpc.discover' }, objectOf(withMember(withMember(entries, 'method', g.wire('rpc.discover')), 'params', [])));
    }
    if (g.draw.chance(0.05)) {
      const length = Math.min(10 * 1024, g.room(writeWire(objectOf(entries))) - 16);
      if (length < 16) return undefined;
      return draft('envelope/method', `method name of ${length} characters`, undefined, objectOf(withMember(entries, 'method', 'm'.repeat(length))), true);
    }
    const [value, what] = g.draw.pick(methodVariants(g.wire(call.method), call.method));
    return draft('envelope/method', `method ${what}`, undefined, objectOf(withMember(entries, 'method', value)));
  },
};

export const paramsMember: Generator = {
  rule: 'envelope/params-type',
  weight: 0.8,
  make(g) {
    const call = validCall(g);
    const [value, what] = g.draw.pick<[Wire | undefined, string]>([
      [undefined, 'omitted'],
      ['', 'an empty string'],
      ['abc', 'a string'],
      [writeWire(call.params), 'the params as a JSON string'],
      [0, 'the number 0'],
      [1, 'a number'],
      [true, 'true'],
      [false, 'false'],
      [null, 'null'],
    ]);
    return draft('envelope/params-type', `${call.method}: params ${what}`, call, objectOf(withMember(entriesOf(g, call), 'params', value)));
  },
};

export const idMember: Generator = {
  rule: 'envelope/id-type',
  weight: 1.5,
  make(g) {
    const call = validCall(g);
    const entries = entriesOf(g, call);
    if (g.draw.chance(0.08)) {
      const huge = g.draw.chance(0.5);
      const room = g.room(writeWire(objectOf(entries))) - 16;
      const length = Math.min(huge ? 10 * 1024 : 1000, room);
      if (length < 16) return undefined;
      const id = huge ? 'i'.repeat(length) : new RawJson(`9${'0'.repeat(length - 1)}`);
      return draft('envelope/id-type', `${call.method}: id ${huge ? 'a string' : 'an integer'} of ${length} characters`, call, objectOf(withMember(entries, 'id', id)), true);
    }
    const [id, what] = g.draw.pick(idValues(g.index));
    return draft('envelope/id-type', `${call.method}: id ${what}`, call, objectOf(withMember(entries, 'id', id)), id instanceof RawJson && /E400/.test(id.text));
  },
};

export const notification: Generator = {
  rule: 'envelope/notification',
  weight: 0.7,
  make(g) {
    const call = validCall(g);
    return draft('envelope/notification', `${call.method} as a notification (no id)`, call, objectOf(entriesOf(g, call, NO_ID)));
  },
};

function extraMembers(g: Gen): [string, Wire][] {
  return [
    ['foo', 1],
    ['result', null],
    ['error', { code: -32600, message: 'Invalid Request' }],
    ['ID', g.index],
    ['Method', 'chain_nope'],
    ['jsonrpc ', '2.0'],
    ['__proto__', { polluted: true }],
    ['constructor', { prototype: {} }],
    ['', ''],
    ['params2', []],
    ['id2', 1],
  ];
}

export const extraMember: Generator = {
  rule: 'envelope/extra-member',
  weight: 0.6,
  make(g) {
    const call = validCall(g);
    const [key, value] = g.draw.pick(extraMembers(g));
    const entries = entriesOf(g, call);
    const at = g.draw.int(0, entries.length);
    return draft('envelope/extra-member', `${call.method}: an extra member ${JSON.stringify(key)}`, call, objectOf([...entries.slice(0, at), [key, value], ...entries.slice(at)]));
  },
};

export const memberOrder: Generator = {
  rule: 'envelope/member-order',
  weight: 0.4,
  make(g) {
    const call = validCall(g);
    const entries = entriesOf(g, call);
    const order = g.draw.chance(0.5) ? [...entries].reverse() : g.draw.shuffle(entries);
    return draft('envelope/member-order', `${call.method}: members in the order ${order.map(([k]) => k).join(', ')}`, call, objectOf(order));
  },
};

export const duplicateKey: Generator = {
  rule: 'envelope/duplicate-key',
  weight: 1,
  make(g) {
    const call = validCall(g);
    const entries = entriesOf(g, call);
    const key = g.draw.pick(['jsonrpc', 'method', 'params', 'id']);
    const usual = entries.find(([k]) => k === key)?.[1] ?? null;
    const other = g.draw.chance(0.3) ? usual : otherValue(g, key, call);
    const pair: Entry[] = g.draw.chance(0.5) ? [[key, usual], [key, other]] : [[key, other], [key, usual]];
    const at = entries.findIndex(([k]) => k === key);
    const members = [...entries.slice(0, at), pair[0] as Entry, ...entries.slice(at + 1), pair[1] as Entry];
    const same = writeWire(usual) === writeWire(other);
    return draft('envelope/duplicate-key', `${call.method}: "${key}" twice (${same ? 'same value' : 'another value'})`, call, new Members(members));
  },
};

function otherValue(g: Gen, key: string, call: Call): Wire {
  switch (key) {
    case 'jsonrpc':
      return g.draw.pick(['1.0', '3.0', '']);
    case 'method':
      return g.draw.pick([`${SPEC_PREFIX}nope`, g.wire(g.draw.pick(g.callable)), '']);
    case 'params':
      return g.draw.pick<Wire>([[], [null], call.params.length > 0 ? [] : [1]]);
    default:
      return g.draw.pick<Wire>([`other-${g.index}`, g.index + 1, null]);
  }
}

const escapeChar = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
/** Every UTF-16 unit as a \u escape (a character outside the BMP as its surrogate pair, as JSON writes it). */
const escapeAll = (s: string): string => Array.from({ length: s.length }, (_, i) => escapeChar(s.charAt(i))).join('');

/** A string written with escapes: one character, all of them, or upper-case hex digits in the escape. */
function escaped(g: Gen, s: string): { raw: RawJson; what: string } {
  if (s.length === 0) return { raw: new RawJson('"\\u0000"'), what: 'an escaped NUL' };
  const way = g.draw.int(0, 2);
  if (way === 0) return { raw: new RawJson(`"${escapeAll(s)}"`), what: 'every character escaped' };
  const at = g.draw.int(0, s.length - 1);
  const one = way === 1 ? escapeChar(s.charAt(at)) : escapeChar(s.charAt(at)).toUpperCase().replace('\\U', '\\u');
  return { raw: new RawJson(`"${JSON.stringify(s.slice(0, at)).slice(1, -1)}${one}${JSON.stringify(s.slice(at + 1)).slice(1, -1)}"`), what: `character ${at} escaped${way === 2 ? ' (upper-case hex)' : ''}` };
}

export const escapes: Generator = {
  rule: 'envelope/escapes',
  weight: 0.6,
  make(g) {
    const call = validCall(g);
    const entries = entriesOf(g, call);
    const where = g.draw.pick(['method', 'member', 'param', 'id']);
    if (where === 'member') {
      const at = g.draw.int(0, entries.length - 1);
      const [key] = entries[at] as Entry;
      const members = entries.map(([k, v], i): Entry => (i === at ? [`\u0000ESC${i}`, v] : [k, v]));
      const text = writeWire(new Members(members)).replace(JSON.stringify(`\u0000ESC${at}`), `"${escapeAll(key)}"`);
      return { rule: 'envelope/escapes', title: `${call.method}: member name "${key}" escaped`, method: call.method, body: { kind: 'bytes', bytes: utf8(text) }, risky: call.risky };
    }
    const first = call.params[0];
    if (where === 'param' && typeof first === 'string') {
      const { raw, what } = escaped(g, first);
      return draft('envelope/escapes', `${call.method}: params[0] with ${what}`, call, objectOf(withMember(entries, 'params', [raw, ...call.params.slice(1)])));
    }
    if (where === 'id') {
      const id = g.draw.pick(['\ud83d\ude00', '\u00e9', `case-${g.index}`, '\u0000']);
      const { raw, what } = escaped(g, id);
      return draft('envelope/escapes', `${call.method}: id with ${what}`, call, objectOf(withMember(entries, 'id', raw)));
    }
    const { raw, what } = escaped(g, g.wire(call.method));
    return draft('envelope/escapes', `${call.method}: method name with ${what}`, call, objectOf(withMember(entries, 'method', raw)));
  },
};

/** A valid call padded to a few bytes under the cap: with whitespace before or after it, or with a long extra member. */
export const nearCap: Generator = {
  rule: 'envelope/near-cap',
  weight: 0.02,
  make(g) {
    const call = validCall(g);
    const value = callRequest(g, call);
    const text = writeWire(value);
    const size = g.ctx.maxBodyBytes - g.draw.int(1, 64);
    const pad = size - byteLength(text);
    if (pad < 16) return undefined;
    const how = g.draw.pick(['before', 'after', 'member']);
    const title = `${call.method}: a body of ${size} bytes (${how === 'member' ? 'a long extra member' : `whitespace ${how} the call`})`;
    return { rule: 'envelope/near-cap', title, method: call.method, body: padded(text, value, pad, how), risky: true };
  },
};

function padded(text: string, value: { [key: string]: Wire }, pad: number, how: string): Body {
  const core = utf8(text);
  const bytes = new Uint8Array(core.length + pad);
  if (how === 'member') {
    const open = utf8(`${text.slice(0, -1)},"pad":"`);
    const fill = pad - byteLength(',"pad":""');
    bytes.set(open, 0);
    bytes.fill(0x61, open.length, open.length + fill);
    bytes.set(utf8('"}'), open.length + fill);
    const json = { ...value, pad: 'a'.repeat(fill) };
    return { kind: 'bytes', bytes, ...(isPlainWire(json) ? { json } : {}) };
  }
  bytes.fill(0x20);
  bytes.set(core, how === 'before' ? pad : 0);
  return { kind: 'bytes', bytes };
}

export const ENVELOPE_MEMBER_GENERATORS: readonly Generator[] = [jsonrpcMember, methodMember, paramsMember, idMember, notification, extraMember, memberOrder, duplicateKey, escapes, nearCap];
