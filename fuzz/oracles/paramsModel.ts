/**
 * What a call of a known method is owed for its params: a result (they validate against the method's params
 * schema as the interface writes it: the profile's result choices, such as integers as hex quantities, are not
 * the params'), an error (they do not), or either (a form the profile accepts or the interface leaves open). Sources:
 * - the params schemas of schemas/methods/ (the single source of every shape);
 * - JSON-RPC 2.0 §5.1 for -32602, which the suite grades MUST only for a param of the wrong JSON type
 *   (suites/checks/transport/errors.ts, transport/invalid-params); other bad params are refused at SHOULD
 *   level there (expectRefused), with the profile's codes at PROFILE level (expectProfileError);
 * - the profile's leniencies (Profile.params: extra, byName, hexPrefix, stringIntegers), each undone to see
 *   whether the plain form would be valid, and its InvalidParams codes by condition (profile/errorConditions.ts);
 * - an absent params, which JSON-RPC 2.0 §4 lets a client omit and the interface leaves open
 *   (docs/interface.md#not-shown; the reference profile counts it as []).
 */
import type { JsonValue } from '../../core/json/index.js';
import { jsonInteger } from '../../core/json/index.js';
import { schemaCatalog } from '../../core/schema/schemaCatalog.js';
import { formatProblems, validators } from '../../core/schema/validators.js';
import type { Problem } from '../../core/schema/validators.js';
import { errorCode } from '../../profile/Profile.js';
import type { Profile } from '../../profile/Profile.js';
import { isObject } from '../../profile/readWire.js';
import type { AnswerExpectation } from '../model.js';

type Form = keyof Profile['params'];

/** The InvalidParams condition a refusal of each form falls under (as suites/checks/support.ts, LENIENCY_CONDITION). */
const FORM_CONDITION: Readonly<Record<Form, string>> = { extra: 'count', byName: 'by-name', hexPrefix: 'hex-prefix', stringIntegers: 'string-integer' };

/** A positional param's kind, from the shared definition its schema names, and the condition a bad value falls under. */
interface ParamKind {
  /** The JSON type the interface gives it (schemas/defs.schema.json). */
  json: 'number' | 'string' | undefined;
  /** The InvalidParams condition of a bad value of the right JSON type (profile/errorConditions.ts). */
  condition: string | undefined;
  hex: boolean;
  integer: boolean;
}

const CONDITION_OF_DEF: Readonly<Record<string, string>> = { Address: 'address', Hex64: 'address', U64: 'height', HexBytes: 'tx-hex' };

/** What a call's params are owed, with where the rule comes from. */
export interface ParamsVerdict {
  answer: AnswerExpectation;
  source: string;
}

const paramsSource = (spec: string): string => `schema: methods/${spec}.schema.json#/definitions/params`;

/** The verdict on `params` (undefined: no params member) of a call of `spec` (the spec's name of a method the schemas hold). */
export function paramsVerdict(spec: string, params: JsonValue | undefined, profile: Profile): ParamsVerdict {
  if (params === undefined) {
    if (validParams(spec, [])) {
      return { answer: { kind: 'either', because: 'params is absent: JSON-RPC 2.0 §4 lets a client omit it, and the interface leaves how a node takes that open (docs/interface.md#not-shown)' }, source: 'JSON-RPC 2.0 §4' };
    }
    return invalid(spec, [], profile, [], ['count']);
  }
  if (validParams(spec, params)) return { answer: { kind: 'result', method: spec }, source: `schema: methods/${spec}.schema.json#/definitions/result` };
  const undone = undoForms(spec, params);
  const refused = undone.forms.filter((f) => profile.params[f] === 'refused');
  if (undone.forms.length > 0 && validParams(spec, undone.values)) {
    if (refused.length === 0) {
      return { answer: { kind: 'either', because: `params in a form the profile accepts (${undone.forms.map((f) => `params.${f}`).join(', ')}): served as the plain form, or refused` }, source: `profile: params.${undone.forms[0] ?? 'extra'}` };
    }
    const conditions = refused.flatMap((f) => formConditions(f, undone.hexAt.map((i) => paramKind(spec, i))));
    const code = invalidParamsCode(profile, conditions, false);
    const because = `params in a form the profile refuses (${refused.map((f) => `params.${f}: refused`).join(', ')})`;
    return { answer: { kind: 'error', ...code, because }, source: `profile: params.${refused[0] ?? 'extra'}` };
  }
  const read = undone.forms.length > 0 ? ` (read with ${undone.forms.map((f) => `params.${f}`).join(', ')} undone)` : '';
  return invalid(spec, undone.values, profile, refused.flatMap((f) => formConditions(f, [])), [], read);
}

/** Params that break the method's schema even with every form undone: an error, with the code the profile or a MUST names. */
function invalid(spec: string, values: JsonValue[], profile: Profile, formConds: string[], extra: string[], read = ''): ParamsVerdict {
  const problems = problemsOf(spec, values);
  const typeAt = new Set<number>();
  const problemConds: string[] = [];
  for (const p of problems) {
    const index = paramIndex(p.pointer);
    if (index === undefined) {
      problemConds.push('count');
      continue;
    }
    const kind = paramKind(spec, index);
    if (kind.json !== undefined && index < values.length && jsonKind(values[index]) !== kind.json) {
      typeAt.add(index);
      problemConds.push('type');
    } else if (kind.condition !== undefined) problemConds.push(kind.condition);
  }
  const conditions = [...new Set([...formConds, ...problemConds, ...extra])];
  const code = invalidParamsCode(profile, conditions, typeAt.size > 0);
  const because = `the params${read} break ${spec}'s params schema${problems.length > 0 ? `: ${formatProblems(problems)}` : ''}`;
  return { answer: { kind: 'error', ...code, because }, source: paramsSource(spec) };
}

/**
 * The code an InvalidParams refusal must carry: the profile's for the first condition it names one for, else
 * its InvalidParams code (Profile.errorCode); none compared where the profile says null; -32602 where the
 * profile names none and JSON-RPC 2.0 §5.1 makes it a MUST (a param of the wrong JSON type, as the suite grades).
 */
function invalidParamsCode(profile: Profile, conditions: readonly string[], wrongType: boolean): { code?: number; codeFrom?: string } {
  const code = errorCode(profile, 'InvalidParams', conditions);
  if (typeof code === 'number') {
    const named = conditions.find((c) => profile.errorCodes[`InvalidParams/${c}`] !== undefined);
    return { code, codeFrom: `profile: errorCodes.InvalidParams${named === undefined ? '' : `/${named}`}` };
  }
  if (code === undefined && wrongType) return { code: -32602, codeFrom: 'JSON-RPC 2.0 §5.1 (-32602 for a param of the wrong type: a MUST in the suite, transport/invalid-params)' };
  return {};
}

/** The conditions a refused form falls under (a 0x before a transaction is also a tx-hex problem, as the suite says). */
function formConditions(form: Form, kinds: ParamKind[]): string[] {
  const broader = form === 'hexPrefix' && kinds.some((k) => k.condition === 'tx-hex') ? ['tx-hex'] : [];
  return [FORM_CONDITION[form], ...broader];
}

/**
 * Whether params validate against the method's params schema as the interface writes it. The profile's result
 * choices (integers as hex quantities, hex case, ...) are about results (docs/profiles.md: `integers` "in
 * results"), never params: what a profile says of params is its `params` forms, undone by undoForms.
 */
function validParams(spec: string, params: JsonValue): boolean {
  return validators().params(spec, params).ok;
}

function problemsOf(spec: string, values: JsonValue[]): Problem[] {
  const v = validators().params(spec, values);
  return v.ok ? [] : v.problems;
}

/** The index of the param a problem's pointer is about ("/0/x" -> 0); undefined for the params array itself. */
function paramIndex(pointer: string): number | undefined {
  const m = /^\/(\d+)/.exec(pointer);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

function jsonKind(v: JsonValue | undefined): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'bigint') return 'number';
  return typeof v;
}

/**
 * The params with every form the profile could take for a plain one undone: by-name params put in their
 * positions (x-params order), params beyond the method's list dropped, a 0x before hex removed, an integer
 * written as a string read as the integer. `forms` lists the ones found; `hexAt` where a 0x was removed.
 */
function undoForms(spec: string, params: JsonValue): { values: JsonValue[]; forms: Form[]; hexAt: number[] } {
  const names = paramNames(spec);
  const forms = new Set<Form>();
  let values: JsonValue[];
  if (isObject(params)) {
    forms.add('byName');
    if (Object.keys(params).some((k) => !names.includes(k))) forms.add('extra');
    values = [];
    for (const name of names) {
      if (!Object.hasOwn(params, name)) break;
      values.push(params[name] as JsonValue);
    }
  } else values = Array.isArray(params) ? [...params] : [];
  if (values.length > names.length) {
    forms.add('extra');
    values = values.slice(0, names.length);
  }
  const hexAt: number[] = [];
  values = values.map((v, i) => {
    const kind = paramKind(spec, i);
    if (typeof v !== 'string') return v;
    if (kind.hex && /^0[xX]/.test(v)) {
      forms.add('hexPrefix');
      hexAt.push(i);
      return v.slice(2);
    }
    // Any string that writes an integer: the profile's stringIntegers names no canonical form ("007" read as 7,
    // or a hex quantity "0x2", is a lenient node's reading as much as "7" is).
    if (kind.integer && /^([0-9]+|0[xX][0-9a-fA-F]+)$/.test(v)) {
      forms.add('stringIntegers');
      return jsonInteger(BigInt(v));
    }
    return v;
  });
  return { values, forms: [...forms], hexAt };
}

let namesCache: Map<string, string[]> | undefined;
let kindsCache: Map<string, ParamKind[]> | undefined;

/** The method's param names, in order (its schema's x-params). */
function paramNames(spec: string): string[] {
  namesCache ??= new Map(schemaCatalog().methods.map((m) => [m.title, m['x-params'].map((p) => p.name)]));
  return namesCache.get(spec) ?? [];
}

const NO_KIND: ParamKind = { json: undefined, condition: undefined, hex: false, integer: false };

/** The kind of the method's param at `index` (from its schema's items and schemas/defs.schema.json). */
function paramKind(spec: string, index: number): ParamKind {
  kindsCache ??= new Map(schemaCatalog().methods.map((m) => [m.title, itemsOf(m.definitions.params).map(kindOfItem)]));
  return kindsCache.get(spec)?.[index] ?? NO_KIND;
}

function itemsOf(params: { [key: string]: JsonValue | undefined }): JsonValue[] {
  const items = params.items;
  return Array.isArray(items) ? items : [];
}

/** An item schema ({"$ref": "../defs.schema.json#/definitions/Address"}) as a kind, following the definitions' own $refs. */
function kindOfItem(item: JsonValue): ParamKind {
  const defs = schemaCatalog().defs.definitions;
  let node: JsonValue | undefined = item;
  let first: string | undefined;
  for (let hops = 0; hops < 8 && isObject(node) && typeof node.$ref === 'string'; hops++) {
    const name: string = node.$ref.slice(node.$ref.lastIndexOf('/') + 1);
    first ??= name;
    node = isObject(defs) ? defs[name] : undefined;
  }
  const type = isObject(node) ? node.type : undefined;
  const json = type === 'integer' || type === 'number' ? 'number' : type === 'string' ? 'string' : undefined;
  const condition = first === undefined ? undefined : CONDITION_OF_DEF[first];
  return { json, condition, hex: condition === 'address' || condition === 'tx-hex', integer: type === 'integer' };
}
