/**
 * Batches (JSON-RPC 2.0 §6): valid calls mixed with invalid ones, notifications and elements that are not
 * request objects; two calls with one id; the empty batch; a batch of one; only notifications; nested
 * batches; elements that are not objects; and batches over the node's limit (maxBatch + 1, or 1001 when the
 * limit is unknown) or exactly at it. Every element that calls a method calls one the case may call.
 */
import { stringifyJson, type JsonValue } from '../../core/json/index.js';
import type { MethodName } from '../../core/schema/types.generated.js';
import { SPEC_PREFIX } from '../../profile/Profile.js';
import { DEFAULT_MAX_BATCH } from './CaseContext.js';
import { drawMethod, type Draft, type Gen, type Generator } from './generator.js';
import { invalidCall } from './invalidParams.js';
import { methodSpecOf } from './paramSpecs.js';
import { NO_ID, callRequest, callWeight, validCall } from './validCalls.js';
import { RawJson, byteLength, bytesBody, isPlainWire, jsonBody, objectOf, request, utf8, writeWire, type Wire } from './wire.js';

interface Element {
  value: Wire;
  method?: MethodName;
  kind: 'call' | 'notification' | 'invalid' | 'odd';
  risky?: boolean;
}

function oddElement(g: Gen, id: Wire): Element {
  const call = validCall(g);
  return g.draw.weighted<() => Element>([
    [() => ({ value: objectOf([['method', g.wire(call.method)], ['params', call.params], ['id', id]]), kind: 'odd' }), 1],
    [() => ({ value: request(`${SPEC_PREFIX}nope`, [], id), kind: 'odd' }), 1],
    [() => ({ value: {}, kind: 'odd' }), 1],
    [() => ({ value: g.draw.pick<Wire>([1, null, 'x', true]), kind: 'odd' }), 1],
  ])();
}

function element(g: Gen, kind: Element['kind'], id: Wire): Element {
  if (kind === 'odd') return oddElement(g, id);
  if (kind === 'invalid') {
    const bad = invalidCall(g, g.draw.pick(g.callable));
    if (bad !== undefined) return { value: request(g.wire(bad.method), bad.params, id), method: bad.method, kind, risky: bad.risky };
  }
  const call = validCall(g);
  return { value: callRequest(g, call, kind === 'notification' ? NO_ID : id), method: call.method, kind: kind === 'notification' ? kind : 'call', risky: call.risky };
}

function batchDraft(rule: string, title: string, elements: readonly Element[], extraRisk = false): Draft {
  const method = elements.find((e) => e.method !== undefined)?.method;
  return { rule, title, ...(method === undefined ? {} : { method }), body: jsonBody(elements.map((e) => e.value)), risky: extraRisk || elements.some((e) => e.risky === true) };
}

const batchId = (g: Gen, i: number, strings: boolean): Wire => (strings ? `b${g.index}-${i}` : i + 1);

export const batchMixed: Generator = {
  rule: 'envelope/batch-mixed',
  weight: 1.2,
  make(g) {
    const n = g.draw.int(2, 8);
    const strings = g.draw.chance(0.3);
    const odd = g.draw.int(1, n - 1);
    const kinds = Array.from({ length: n }, (_, i): Element['kind'] =>
      i === 0 ? 'call' : i === odd ? g.draw.pick(['notification', 'invalid', 'odd'] as const) : g.draw.weighted([['call', 3], ['notification', 1], ['invalid', 1], ['odd', g.restricted ? 0 : 1]] as const),
    );
    const order = g.draw.shuffle(kinds.map((k, i) => ({ k, i })));
    const elements = order.map(({ k, i }) => element(g, k === 'odd' && g.restricted ? 'invalid' : k, batchId(g, i, strings)));
    const counts = (['call', 'notification', 'invalid', 'odd'] as const).map((k) => [k, elements.filter((e) => e.kind === k).length] as const).filter(([, c]) => c > 0);
    return batchDraft('envelope/batch-mixed', `batch of ${n}: ${counts.map(([k, c]) => `${c} ${k}`).join(', ')}`, elements);
  },
};

export const batchDuplicateId: Generator = {
  rule: 'envelope/batch-duplicate-id',
  weight: 1,
  make(g) {
    const n = g.draw.int(2, 6);
    const shared = g.draw.weighted<Wire>([[1, 3], [`dup-${g.index}`, 2], [0, 1], [null, 0.5]]);
    const all = g.draw.chance(0.2);
    const a = g.draw.int(0, n - 1);
    const b = (a + g.draw.int(1, n - 1)) % n;
    const elements = Array.from({ length: n }, (_, i): Element => {
      const id = all || i === a || i === b ? shared : 100 + i;
      const call = validCall(g);
      return { value: callRequest(g, call, id), method: call.method, kind: 'call', risky: call.risky };
    });
    return batchDraft('envelope/batch-duplicate-id', `batch of ${n} with ${all ? 'every' : 'two'} id ${writeWire(shared)}`, elements);
  },
};

export const batchEmpty: Generator = {
  rule: 'envelope/batch-empty',
  weight: 0.4,
  methodless: true,
  make(g) {
    const text = g.draw.pick(['[]', '[]', '[ ]', '[\n]']);
    return { rule: 'envelope/batch-empty', title: `an empty batch ${JSON.stringify(text)}`, body: text === '[]' ? jsonBody([]) : bytesBody(utf8(text)) };
  },
};

export const batchSingle: Generator = {
  rule: 'envelope/batch-single',
  weight: 0.4,
  make(g) {
    const call = validCall(g);
    return batchDraft('envelope/batch-single', `batch of one ${call.method} call`, [{ value: callRequest(g, call), method: call.method, kind: 'call', risky: call.risky }]);
  },
};

export const batchNotifications: Generator = {
  rule: 'envelope/batch-notifications',
  weight: 0.5,
  make(g) {
    const n = g.draw.int(1, 5);
    const elements = Array.from({ length: n }, (): Element => element(g, 'notification', null));
    return batchDraft('envelope/batch-notifications', `batch of ${n} notifications`, elements);
  },
};

export const batchNested: Generator = {
  rule: 'envelope/batch-nested',
  weight: 0.5,
  make(g) {
    const call = validCall(g);
    const one = (id: number): Wire => callRequest(g, call, id);
    const [value, what] = g.draw.pick<[Wire, string]>([
      [[[one(1)]], 'a batch inside a batch'],
      [[one(1), [one(2), one(3)]], 'a call and a nested batch'],
      [[[one(1)], [one(2)]], 'two nested batches'],
      [[[[one(1)]]], 'three levels'],
      [[one(1), []], 'a call and an empty batch'],
    ]);
    return { rule: 'envelope/batch-nested', title: `${call.method}: ${what}`, method: call.method, body: jsonBody(value), risky: call.risky };
  },
};

export const batchInvalid: Generator = {
  rule: 'envelope/batch-invalid',
  weight: 0.5,
  methodless: true,
  make(g) {
    const [value, what] = g.draw.pick<[Wire, string]>([
      [[null], '[null]'],
      [[1, 2, 3], '[1,2,3]'],
      [['x'], '["x"]'],
      [[{}], '[{}]'],
      [[true, false], '[true,false]'],
      [[[]], '[[]]'],
      [[null, null], '[null,null]'],
      [[new RawJson('1E400')], '[1E400]'],
    ]);
    return { rule: 'envelope/batch-invalid', title: `batch of non-requests ${what}`, body: jsonBody(value) };
  },
};

interface BigBatch {
  value: JsonValue[];
  text: string;
  method?: MethodName;
  what: string;
}

/** `n` copies of a few elements with ids 1..n, written directly (a thousand elements would cost milliseconds through writeWire). */
function repeated(n: number, elements: readonly { method: string; params: JsonValue[] | undefined }[]): { value: JsonValue[]; text: string } {
  const value: JsonValue[] = new Array<JsonValue>(n);
  const parts: string[] = new Array<string>(n);
  const heads = elements.map((e) => `{"jsonrpc":"2.0","method":${JSON.stringify(e.method)}${e.params === undefined ? '' : `,"params":${stringifyJson(e.params)}`},"id":`);
  for (let i = 0; i < n; i++) {
    const k = i % elements.length;
    const e = elements[k] as { method: string; params: JsonValue[] | undefined };
    value[i] = e.params === undefined ? { jsonrpc: '2.0', method: e.method, id: i + 1 } : { jsonrpc: '2.0', method: e.method, params: e.params, id: i + 1 };
    parts[i] = `${heads[k] ?? ''}${i + 1}}`;
  }
  return { value, text: `[${parts.join(',')}]` };
}

/** `n` elements of a few valid calls, with ids 1..n, as small as the cap needs: calls, then calls without params, then `{}`. */
function bigBatch(g: Gen, n: number): BigBatch | undefined {
  const noParams = g.callable.filter((m) => methodSpecOf(m).minItems === 0);
  const pool = g.restricted || noParams.length === 0 ? g.callable : noParams;
  const calls = Array.from({ length: g.draw.int(1, 3) }, () => validCall(g, drawMethod(g, pool, callWeight)));
  const first = calls[0] as (typeof calls)[number];
  const plain = calls.flatMap((c) => (isPlainWire(c.params) && Array.isArray(c.params) ? [{ method: g.wire(c.method), params: c.params }] : []));
  const tries: [() => { value: JsonValue[]; text: string }, string, MethodName | undefined][] = [
    [() => repeated(n, plain.length > 0 ? plain : [{ method: g.wire(first.method), params: [] }]), 'calls', first.method],
    [() => repeated(n, [{ method: g.wire(first.method), params: undefined }]), 'calls without params', first.method],
  ];
  if (!g.restricted) tries.push([() => ({ value: Array.from({ length: n }, (): JsonValue => ({})), text: `[${Array<string>(n).fill('{}').join(',')}]` }), 'empty objects', undefined]);
  for (const [make, what, method] of tries) {
    const { value, text } = make();
    if (byteLength(text) <= g.room(0)) return { value, text, what, ...(method === undefined ? {} : { method }) };
  }
  return undefined;
}

export const batchOverLimit: Generator = {
  rule: 'envelope/batch-over-limit',
  weight: 0.05,
  make(g) {
    const limit = g.ctx.maxBatch ?? DEFAULT_MAX_BATCH;
    const n = g.draw.chance(0.7) ? limit + 1 : g.draw.int(limit + 2, 2 * limit + 2);
    const batch = bigBatch(g, n);
    if (batch === undefined) return undefined;
    return { rule: 'envelope/batch-over-limit', title: `batch of ${n} ${batch.what} (limit ${limit}${g.ctx.maxBatch === undefined ? ', assumed' : ''})`, ...(batch.method === undefined ? {} : { method: batch.method }), body: { kind: 'bytes', bytes: utf8(batch.text), json: batch.value }, risky: true };
  },
};

export const batchAtLimit: Generator = {
  rule: 'envelope/batch-at-limit',
  weight: 0.02,
  make(g) {
    const limit = g.ctx.maxBatch;
    if (limit === undefined) return undefined;
    const batch = bigBatch(g, limit);
    if (batch === undefined) return undefined;
    return { rule: 'envelope/batch-at-limit', title: `batch of exactly ${limit} ${batch.what} (the limit)`, ...(batch.method === undefined ? {} : { method: batch.method }), body: { kind: 'bytes', bytes: utf8(batch.text), json: batch.value }, risky: true };
  },
};

export const BATCH_GENERATORS: readonly Generator[] = [batchMixed, batchDuplicateId, batchEmpty, batchSingle, batchNotifications, batchNested, batchInvalid, batchOverLimit, batchAtLimit];
