/**
 * The invalid-params family: a call whose params break one constraint of the method's params schema at a time,
 * found by walking the schema (paramSpecs.ts): every other JSON type, null, one past each bound, fractions, odd
 * number spellings, strings of the wrong length or with characters outside the pattern, a 0x prefix, 100 KB
 * strings, too few and too many params, params by name; and values that are wrong but plausible (integer
 * boundaries, heights as strings). Whether the profile accepts a form is not decided here: the rule says what
 * was done (`invalid-params/hex-prefix`), and the oracles read the profile. chain_faucetClaim is a target (an
 * invalid claim spends nothing) except for forms the profile accepts, unless `only` names it.
 */
import type { MethodName } from '../../core/schema/types.generated.js';
import type { Profile } from '../../profile/Profile.js';
import { drawMethod, type Draft, type Gen, type Generator } from './generator.js';
import { methodSpecOf, type ParamSpec } from './paramSpecs.js';
import {
  FRACTIONS,
  HEIGHT_WORDS,
  INTEGER_BOUNDARIES,
  NEGATIVES,
  NOT_HEX_CHARS,
  NUMBER_TEXTS,
  ODD_STRINGS,
  PAST_U64,
  SAFE_MAX,
  describeInt,
  jsonInt,
} from './plausibleValues.js';
import { validCall, validValue } from './validCalls.js';
import { RawJson, byteLength, jsonBody, objectOf, request, writeWire, type Wire } from './wire.js';

/** Rules that break one param's constraint. */
export type ParamRule = 'type' | 'null' | 'minimum' | 'maximum' | 'fraction' | 'number-form' | 'boundary' | 'string-integer' | 'length' | 'pattern' | 'hex-prefix' | 'huge' | 'enum';
/** Rules about the params as a whole. */
export type ListRule = 'arity' | 'extra' | 'by-name';

export const INVALID_PARAMS_RULES: readonly string[] = (
  ['type', 'null', 'minimum', 'maximum', 'fraction', 'number-form', 'boundary', 'string-integer', 'length', 'pattern', 'hex-prefix', 'huge', 'enum', 'arity', 'extra', 'by-name'] as const
).map((r) => `invalid-params/${r}`);

/**
 * Rules whose values a profile may accept (Profile.params): with that leniency 'refused' (the reference) they
 * break the schema; with 'accepted' the node may take them.
 */
export const LENIENCY_OF_RULE: Readonly<Record<string, keyof Profile['params']>> = {
  'invalid-params/hex-prefix': 'hexPrefix',
  'invalid-params/string-integer': 'stringIntegers',
  'invalid-params/by-name': 'byName',
  'invalid-params/extra': 'extra',
};

/** Rules whose values are wrong but plausible, some of them valid for the schema (1e3 is the integer 1000, 2^53+1 a u64). */
export const PLAUSIBLE_RULES: readonly string[] = ['invalid-params/number-form', 'invalid-params/boundary', 'invalid-params/huge'];

interface Broken {
  value: Wire;
  what: string;
  risky?: boolean;
}

const HUGE_BYTES = 100 * 1024;

function rulesOf(spec: ParamSpec): [ParamRule, number][] {
  const rules: [ParamRule, number][] = [['null', 1]];
  if (spec.type === 'integer') {
    rules.push(['type', 1.5], ['fraction', 1.2], ['number-form', 1], ['boundary', 1], ['string-integer', 1], ['huge', 0.3]);
    if (spec.minimum !== undefined) rules.push(['minimum', 1]);
    if (spec.maximum !== undefined) rules.push(['maximum', 1]);
  } else if (spec.kind === 'address' || spec.kind === 'hex' || spec.kind === 'transaction' || spec.kind === 'hex-bytes') {
    rules.push(['type', 2], ['length', 1.5], ['pattern', 1.2], ['hex-prefix', 1], ['huge', 0.4]);
  } else if (spec.kind === 'enum') {
    rules.push(['type', 1], ['enum', 1.5]);
  } else if (spec.type !== undefined) {
    rules.push(['type', 1]);
  }
  return rules;
}

function integerType(g: Gen, spec: ParamSpec, valid: Wire): Broken {
  return g.draw.weighted<() => Broken>([
    [() => ({ value: g.draw.pick(HEIGHT_WORDS), what: `${spec.name} is a word` }), 1],
    [() => ({ value: g.draw.chance(0.5), what: `${spec.name} is a boolean` }), 1],
    [() => ({ value: [valid], what: `${spec.name} is an array` }), 1],
    [() => ({ value: g.draw.chance(0.5) ? {} : objectOf([[spec.name, valid]]), what: `${spec.name} is an object` }), 1],
    [() => ({ value: '', what: `${spec.name} is an empty string` }), 0.5],
  ])();
}

function stringType(g: Gen, spec: ParamSpec, valid: Wire): Broken {
  const text = typeof valid === 'string' ? valid : '0';
  const digits = /^[0-9a-fA-F]+$/.test(text) ? BigInt(`0x${text.slice(0, 64)}`) : 123n;
  return g.draw.weighted<() => Broken>([
    [() => ({ value: g.draw.pick([0, 1, 123, -1]), what: `${spec.name} is a number` }), 1],
    [() => ({ value: jsonInt(digits), what: `${spec.name} is its hex read as a number` }), 1],
    [() => ({ value: g.draw.chance(0.5), what: `${spec.name} is a boolean` }), 1],
    [() => ({ value: [valid], what: `${spec.name} is an array` }), 1],
    [() => ({ value: {}, what: `${spec.name} is an empty object` }), 1],
    [() => ({ value: objectOf([[spec.name, valid]]), what: `${spec.name} is an object holding it` }), 1],
    [() => ({ value: objectOf([['0', valid], ['1', valid]]), what: `${spec.name} is an object` }), 1],
  ])();
}

function integerBreak(g: Gen, spec: ParamSpec, rule: ParamRule, valid: Wire, room: number): Broken | undefined {
  switch (rule) {
    case 'minimum': {
      const min = spec.minimum ?? 0n;
      const v = g.draw.pick([min - 1n, ...NEGATIVES.filter((n) => n < min - 1n)]);
      return { value: jsonInt(v), what: `${spec.name} ${describeInt(v)}`, risky: v < -SAFE_MAX };
    }
    case 'maximum': {
      const max = spec.maximum ?? 0n;
      const v = g.draw.pick([max + 1n, max + 1n, ...PAST_U64.filter((n) => n > max + 1n)]);
      return { value: jsonInt(v), what: `${spec.name} ${describeInt(v)}`, risky: true };
    }
    case 'fraction': {
      const head = g.ctx.chain.height;
      const [value, what] = head < 2n ** 52n && g.draw.chance(0.2) ? [Number(head) + 0.5, `${head}.5`] : g.draw.pick(FRACTIONS);
      return { value, what: `${spec.name} ${what}` };
    }
    case 'number-form': {
      const { text, integral } = g.draw.pick(NUMBER_TEXTS);
      return { value: new RawJson(text), what: `${spec.name} written ${text}${integral ? '' : ' (no u64)'}`, risky: /E400/i.test(text) };
    }
    case 'boundary': {
      const v = g.draw.pick(INTEGER_BOUNDARIES);
      return { value: jsonInt(v), what: `${spec.name} ${describeInt(v)}`, risky: v > SAFE_MAX };
    }
    case 'string-integer': {
      const v = typeof valid === 'number' || typeof valid === 'bigint' ? BigInt(valid) : 5n;
      const text = g.draw.pick([String(v), String(v), `0x${v.toString(16)}`, `0x${v.toString(16)}`, '0x0', '0X1F', '1e3', '007', ' 5', '-1', '+1', '', '18446744073709551615', `0x${'f'.repeat(16)}`, `0x${'f'.repeat(17)}`]);
      // A string holding an integer beyond 2^53 is a boundary number all the same (a node that reads it may overflow).
      return { value: text, what: `${spec.name} as the string ${JSON.stringify(text)}`, risky: beyondSafe(text) };
    }
    case 'huge': {
      const digits = Math.min(HUGE_BYTES, room);
      if (digits < 40) return undefined;
      const n = g.draw.logInt(40, digits);
      return { value: new RawJson(`1${'0'.repeat(n - 1)}`), what: `${spec.name} an integer of ${n} digits`, risky: true };
    }
    default:
      return undefined;
  }
}

/** One character of `s` replaced by one that is not a hex digit (the length in characters kept). */
function withNotHex(g: Gen, s: string): { value: string; what: string } {
  const c = g.draw.pick(NOT_HEX_CHARS);
  if (s.length === 0) return { value: c, what: `${JSON.stringify(c)}` };
  const at = g.draw.int(0, s.length - 1);
  return { value: s.slice(0, at) + c + s.slice(at + 1), what: `${JSON.stringify(c)} at character ${at}` };
}

function lengthBreak(g: Gen, spec: ParamSpec, text: string): Broken {
  if (spec.hexLength !== undefined) {
    const n = spec.hexLength;
    const length = g.draw.pick([n - 1, n + 1, n - 1, n + 1, 0, 1, n - 2, n + 2, n / 2, 2 * n].filter((l) => l >= 0 && l !== n));
    const value = length <= text.length ? text.slice(0, length) : text + g.draw.hex(length - text.length);
    return { value, what: `${spec.name} of ${length} hex characters` };
  }
  return g.draw.weighted<() => Broken>([
    [() => ({ value: text.slice(0, -1), what: `${spec.name} of odd length (${text.length - 1} hex characters, the last one cut)` }), 1],
    [() => ({ value: text + g.draw.hex(1), what: `${spec.name} of odd length (${text.length + 1} hex characters)` }), 1],
    [() => ({ value: g.draw.hex(1), what: `${spec.name} of one hex character` }), 1],
    [() => ({ value: '', what: `${spec.name} empty` }), 1],
  ])();
}

function hexBreak(g: Gen, spec: ParamSpec, rule: ParamRule, valid: Wire, room: number): Broken | undefined {
  const text = typeof valid === 'string' ? valid : g.draw.hex(spec.hexLength ?? 64);
  switch (rule) {
    case 'length':
      return lengthBreak(g, spec, text);
    case 'pattern': {
      if (g.draw.chance(0.15)) return { value: 'z'.repeat(text.length), what: `${spec.name} of ${text.length} z's` };
      if (g.draw.chance(0.15)) {
        const odd = g.draw.pick(ODD_STRINGS);
        return { value: odd, what: `${spec.name} is the string ${JSON.stringify(odd)}` };
      }
      const { value, what } = withNotHex(g, text);
      return { value, what: `${spec.name} with ${what}` };
    }
    case 'hex-prefix': {
      const prefix = g.draw.pick(['0x', '0x', '0X']);
      return { value: prefix + text, what: `${spec.name} with a ${prefix} prefix` };
    }
    case 'huge': {
      const n = Math.min(HUGE_BYTES, room);
      if (n < 1024) return undefined;
      const length = g.draw.logInt(1024, n);
      const value = spec.kind === 'transaction' || spec.kind === 'hex-bytes' ? g.draw.pick(['ab'.repeat(length >> 1), `${'ab'.repeat(length >> 1)}a`, 'x'.repeat(length)]) : g.draw.pick(['a'.repeat(length), '0'.repeat(length), 'x'.repeat(length)]);
      return { value, what: `${spec.name} of ${value.length} characters`, risky: true };
    }
    default:
      return undefined;
  }
}

/** `spec`'s value broken by `rule`; undefined: the rule does not apply or does not fit. */
function breakParam(g: Gen, spec: ParamSpec, rule: ParamRule, valid: Wire, room: number): Broken | undefined {
  if (rule === 'null') return { value: null, what: `${spec.name} is null` };
  if (rule === 'type') return spec.type === 'integer' ? integerType(g, spec, valid) : stringType(g, spec, valid);
  if (rule === 'enum') return { value: typeof valid === 'string' ? `${valid.toUpperCase()}x` : 'unknown', what: `${spec.name} outside its values` };
  return spec.type === 'integer' ? integerBreak(g, spec, rule, valid, room) : hexBreak(g, spec, rule, valid, room);
}

function listBreak(g: Gen, method: MethodName, rule: ListRule, params: Wire[]): { params: Wire; what: string } {
  const spec = methodSpecOf(method);
  if (rule === 'arity') {
    const keep = g.draw.int(0, Math.max(0, spec.minItems - 1));
    return { params: params.slice(0, keep), what: `${keep} params (${spec.minItems} needed)` };
  }
  if (rule === 'extra') {
    const extra = g.draw.pick<Wire>([null, 0, '', true, {}, [], params[0] ?? 1, 'extra']);
    const many = g.draw.chance(0.1);
    if (!many) return { params: [...params, extra], what: `one param too many (${writeWire(extra)})` };
    // Many too many: a node that allocates or loops per param (an outside tester's died on 1,000 and more), bounded
    // far under a body limit: about 100 KB of params at most (10,000 short ones; fewer of a long one, a transaction).
    const count = Math.max(10, Math.min(g.draw.pick([10, 10, 1_000, 10_000]), Math.floor(100_000 / (writeWire(extra).length + 1))));
    return { params: [...params, ...Array<Wire>(count).fill(extra)], what: `${count.toLocaleString('en-US')} params too many` };
  }
  const named = spec.params.map((p, i): [string, Wire] => [p.name, params[i] ?? null]);
  const misnamed = g.draw.chance(0.25) && named.length > 0;
  const entries = misnamed ? named.map(([name, v]): [string, Wire] => [g.draw.pick([name.toUpperCase(), `${name}_`, '0', camel(name)]), v]) : named;
  return { params: objectOf(entries), what: named.length === 0 ? 'params as an empty object' : misnamed ? 'params by other names' : 'params by name' };
}

const camel = (name: string): string => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) + (name.includes('_') ? '' : 'Id');

type Choice = { kind: 'param'; rule: ParamRule; positions: number[] } | { kind: 'list'; rule: ListRule };

/** Every rule the method's params schema has to break, by weight; leniencies the profile accepts left out for a faucet claim not asked for. */
function choicesOf(g: Gen, method: MethodName): [Choice, number][] {
  const spec = methodSpecOf(method);
  const byRule = new Map<ParamRule, { positions: number[]; weight: number }>();
  spec.params.forEach((p, i) => {
    for (const [rule, weight] of rulesOf(p)) {
      const entry = byRule.get(rule) ?? { positions: [], weight };
      entry.positions.push(i);
      byRule.set(rule, entry);
    }
  });
  const choices: [Choice, number][] = [...byRule].map(([rule, { positions, weight }]) => [{ kind: 'param', rule, positions }, weight]);
  if (spec.minItems > 0) choices.push([{ kind: 'list', rule: 'arity' }, 1]);
  if (spec.maxItems !== undefined) choices.push([{ kind: 'list', rule: 'extra' }, 1]);
  choices.push([{ kind: 'list', rule: 'by-name' }, 1]);
  const accepted = (c: Choice): boolean => {
    const leniency = LENIENCY_OF_RULE[`invalid-params/${c.rule}`];
    return leniency !== undefined && g.ctx.profile.params[leniency] === 'accepted';
  };
  const spends = method === 'chain_faucetClaim' && !g.asked.has(method);
  return spends ? choices.filter(([c]) => !accepted(c)) : choices;
}

/** Methods without params have little to break (extra params, params by name): drawn less often. */
const targetWeight = (m: MethodName): number => (methodSpecOf(m).params.length > 0 ? 3 : 0.25);

/** A call of a method with one constraint of its params broken; undefined: the drawn rule does not fit this context. */
export interface InvalidCall {
  method: MethodName;
  params: Wire;
  rule: string;
  what: string;
  risky: boolean;
}

export function invalidCall(g: Gen, method: MethodName = drawMethod(g, g.targets, targetWeight)): InvalidCall | undefined {
  const call = validCall(g, method);
  const choice = g.draw.weighted(choicesOf(g, method));
  if (choice.kind === 'list') {
    const { params, what } = listBreak(g, method, choice.rule, call.params);
    return { method, params, rule: `invalid-params/${choice.rule}`, what, risky: call.risky };
  }
  const at = g.draw.pick(choice.positions);
  const spec = methodSpecOf(method).params[at];
  if (spec === undefined) return undefined;
  const valid = call.params[at] ?? validValue(g, spec).value;
  const used = byteLength(writeWire(request(g.wire(method), call.params.map((p, i) => (i === at ? '' : p)), g.id())));
  const broken = breakParam(g, spec, choice.rule, valid, g.room(used) - 16);
  if (broken === undefined) return undefined;
  const params = call.params.map((p, i) => (i === at ? broken.value : p));
  return { method, params, rule: `invalid-params/${choice.rule}`, what: broken.what, risky: broken.risky === true };
}

export const invalidParams: Generator = {
  rule: 'invalid-params/*',
  weight: 1,
  make(g): Draft | undefined {
    const call = invalidCall(g);
    if (call === undefined) return undefined;
    return { rule: call.rule, title: `${call.method}: ${call.what}`, method: call.method, body: jsonBody(request(g.wire(call.method), call.params, g.id())), risky: call.risky };
  },
};

/** Whether a string writes an integer (decimal, or hex after 0x) beyond 2^53 - 1. */
function beyondSafe(text: string): boolean {
  const t = text.trim();
  if (/^\d+$/.test(t)) return BigInt(t) > SAFE_MAX;
  if (/^0[xX][0-9a-fA-F]+$/.test(t)) return BigInt(t) > SAFE_MAX;
  return false;
}
