/**
 * The valid family: a call of a method with params drawn from its schema and the live chain. Heights around
 * genesis, the head and head±1, below the head at random, far above it and above 2^53; addresses the chain
 * knows and fresh ones, in either case; for chain_sendRawTransaction real transactions signed by fresh unfunded
 * keys (refused for balance, after the node decoded and verified them), the codec's crafted variants, other
 * chains' transactions and random bytes. Every value validates against the method's params schema; the rule
 * says which edge it is on. Other generators take their base calls from here.
 */
import type { MethodName } from '../../core/schema/types.generated.js';
import { drawMethod, type Draft, type Gen, type Generator } from './generator.js';
import { methodSpecOf, type ParamSpec } from './paramSpecs.js';
import { BIG_U64, SAFE_MAX, U64_MAX, describeInt, jsonInt } from './plausibleValues.js';
import { jsonBody, request, type Wire } from './wire.js';

export const VALID_RULES = [
  'valid/call',
  'valid/no-block',
  'valid/big-integer',
  'valid/upper-case',
  'valid/tx-unfunded',
  'valid/tx-crafted',
  'valid/tx-wrong-chain',
  'valid/tx-garbage',
] as const;
export type ValidRule = (typeof VALID_RULES)[number];

/** One param's value, the rule it falls under, and how a title names it. */
export interface Drawn {
  value: Wire;
  rule: ValidRule;
  what: string;
  risky?: boolean;
}

/** A valid call, before it is put into a request object. */
export interface Call {
  method: MethodName;
  params: Wire[];
  rule: ValidRule;
  what: string;
  risky: boolean;
}

/**
 * How often each method is called: those with params three times as often as those without (they have more to
 * get right); rpc.discover, whose answer is one document whatever is asked (27 KB from the reference node, 30
 * times the cost of a call to judge), a quarter as often as the others without params.
 */
export const callWeight = (m: MethodName): number => (m === 'rpc.discover' ? 0.25 : methodSpecOf(m).params.length > 0 ? 3 : 1);

function heightValue(g: Gen): Drawn {
  const genesis = BigInt(g.ctx.chain.genesisHeight);
  const head = g.ctx.chain.height > genesis ? g.ctx.chain.height : genesis;
  const options: [() => Drawn, number][] = [
    [() => ({ value: jsonInt(genesis), rule: 'valid/call', what: `height ${genesis} (genesis)` }), 2],
    [() => ({ value: jsonInt(head), rule: 'valid/call', what: `height ${head} (the head)` }), 2],
    [() => ({ value: jsonInt(g.draw.bigint(genesis, head)), rule: 'valid/call', what: 'a height below the head' }), 3],
    [() => ({ value: jsonInt(head < U64_MAX ? head + 1n : head), rule: 'valid/no-block', what: `height ${head + 1n} (head + 1)` }), 1.5],
    [() => farAbove(g, head), 1],
    [() => bigHeight(g), 1.5],
  ];
  if (genesis + 1n <= head) options.push([() => ({ value: jsonInt(genesis + 1n), rule: 'valid/call', what: 'height genesis + 1' }), 1]);
  if (head - 1n >= genesis) options.push([() => ({ value: jsonInt(head - 1n), rule: 'valid/call', what: 'height head - 1' }), 1]);
  if (genesis > 0n) options.push([() => ({ value: jsonInt(genesis - 1n), rule: 'valid/no-block', what: `height ${genesis - 1n} (below genesis)` }), 0.5]);
  return g.draw.weighted(options)();
}

function farAbove(g: Gen, head: bigint): Drawn {
  const above = [head + 1000n, head * 2n + 1_000_000n, 2n ** 32n, 2n ** 52n].filter((h) => h > head + 1n && h <= U64_MAX);
  const h = above.length > 0 ? g.draw.pick(above) : U64_MAX;
  return { value: jsonInt(h), rule: 'valid/no-block', what: `height ${describeInt(h)} (far above the head)`, risky: h > SAFE_MAX };
}

function bigHeight(g: Gen): Drawn {
  const h = g.draw.pick(BIG_U64);
  return { value: jsonInt(h), rule: 'valid/big-integer', what: `height ${describeInt(h)}`, risky: true };
}

function integerValue(g: Gen, spec: ParamSpec): Drawn {
  const min = spec.minimum ?? 0n;
  const max = spec.maximum ?? min + 1000n;
  if (g.draw.chance(0.15)) return { value: jsonInt(max), rule: max > BigInt(Number.MAX_SAFE_INTEGER) ? 'valid/big-integer' : 'valid/call', what: `${spec.name} ${describeInt(max)} (its maximum)` };
  const v = g.draw.bigint(min, max < min + 1000n ? max : min + 1000n);
  return { value: jsonInt(v), rule: 'valid/call', what: `${spec.name} ${v}` };
}

/** A mix of cases: every letter flipped at random, at least one of them upper. */
function mixedCase(g: Gen, hex: string): string {
  const out = [...hex].map((c) => (g.draw.chance(0.5) ? c.toUpperCase() : c)).join('');
  return out === hex.toLowerCase() ? hex.toUpperCase() : out;
}

const knownHex = new WeakMap<readonly string[], { count: number; byLength: Map<number, string[]> }>();

/** The chain's addresses that are `length` hex characters (a profile may name proposers otherwise); kept per list. */
function knownOfLength(addresses: readonly string[], length: number): string[] {
  let entry = knownHex.get(addresses);
  if (entry === undefined || entry.count !== addresses.length) {
    entry = { count: addresses.length, byLength: new Map() };
    knownHex.set(addresses, entry);
  }
  let known = entry.byLength.get(length);
  if (known === undefined) {
    const pattern = new RegExp(`^[0-9a-fA-F]{${length}}$`);
    known = addresses.filter((a) => pattern.test(a));
    entry.byLength.set(length, known);
  }
  return known;
}

function addressValue(g: Gen, spec: ParamSpec): Drawn {
  const length = spec.hexLength ?? 64;
  const known = knownOfLength(g.ctx.chain.addresses, length);
  const base = (): string => (known.length > 0 && g.draw.chance(0.5) ? g.draw.pick(known) : g.draw.hex(length));
  const options: [() => Drawn, number][] = [
    [() => ({ value: g.draw.hex(length), rule: 'valid/call', what: `a fresh ${spec.name}` }), 3],
    [() => ({ value: g.draw.pick(['0'.repeat(length), 'f'.repeat(length), `${'0'.repeat(length - 1)}1`]), rule: 'valid/call', what: `an all-0 or all-f ${spec.name}` }), 1],
    [() => ({ value: base().toUpperCase(), rule: 'valid/upper-case', what: `${spec.name} in upper case` }), 2],
    [() => ({ value: mixedCase(g, base()), rule: 'valid/upper-case', what: `${spec.name} in mixed case` }), 1],
  ];
  if (known.length > 0) options.push([() => ({ value: g.draw.pick(known), rule: 'valid/call', what: `a ${spec.name} the chain knows` }), 3]);
  return g.draw.weighted(options)();
}

function transactionValue(g: Gen): Drawn {
  const i = g.draw.int(0, 1023);
  const pool = g.txs();
  const options: [() => Drawn, number][] = [
    [() => ({ value: pool.unfunded(i).wire, rule: 'valid/tx-unfunded', what: pool.unfunded(i).what }), 4],
    [() => {
      const crafted = pool.crafted(i);
      return crafted === undefined ? { value: pool.unfunded(i).wire, rule: 'valid/tx-unfunded', what: pool.unfunded(i).what } : { value: crafted.wire, rule: 'valid/tx-crafted', what: crafted.what };
    }, 2],
    [() => ({ value: pool.wrongChain(i).wire, rule: 'valid/tx-wrong-chain', what: pool.wrongChain(i).what }), 1],
    [() => ({ value: mixedCase(g, pool.unfunded(i).wire), rule: 'valid/upper-case', what: 'a transaction in mixed case' }), 0.5],
    [() => ({ value: pool.unfunded(i).wire.toUpperCase(), rule: 'valid/upper-case', what: 'a transaction in upper case' }), 0.5],
    [() => garbageTransaction(g, pool.unfunded(0).wire.length), 1.5],
  ];
  return g.draw.weighted(options)();
}

function garbageTransaction(g: Gen, wireLength: number): Drawn {
  const length = g.draw.pick([wireLength, wireLength, wireLength - 2, wireLength + 2, 2, 64, 2 * g.draw.int(1, 600)]);
  return { value: g.draw.hex(Math.max(2, length - (length % 2))), rule: 'valid/tx-garbage', what: `${length / 2} random bytes as a transaction` };
}

/** A valid value for one param. */
export function validValue(g: Gen, spec: ParamSpec): Drawn {
  switch (spec.kind) {
    case 'height':
      return heightValue(g);
    case 'integer':
      return integerValue(g, spec);
    case 'address':
    case 'hex':
      return addressValue(g, spec);
    case 'transaction':
      return transactionValue(g);
    case 'hex-bytes': {
      const value = g.draw.hex(2 * g.draw.int(1, 64));
      return g.draw.chance(0.2) ? { value: value.toUpperCase(), rule: 'valid/upper-case', what: `${spec.name} in upper case` } : { value, rule: 'valid/call', what: spec.name };
    }
    case 'enum':
      return { value: g.draw.pick(spec.enum ?? [null]), rule: 'valid/call', what: spec.name };
    case 'string':
    case 'other':
      return { value: spec.examples.length > 0 ? g.draw.pick(spec.examples) : 'x', rule: 'valid/call', what: `${spec.name} from the schema's examples` };
  }
}

/** A valid call of `method` (or of a method drawn from those the case may call). */
export function validCall(g: Gen, method: MethodName = drawMethod(g, g.callable, callWeight)): Call {
  const drawn = methodSpecOf(method).params.map((spec) => validValue(g, spec));
  const edge = drawn.find((d) => d.rule !== 'valid/call') ?? drawn[0];
  return {
    method,
    params: drawn.map((d) => d.value),
    rule: edge?.rule ?? 'valid/call',
    what: drawn.length === 0 ? 'no params' : drawn.map((d) => d.what).join(', '),
    risky: drawn.some((d) => d.risky === true),
  };
}

/** No id member: a notification. */
export const NO_ID: unique symbol = Symbol('no id');

/** The call as a request object, with the case's id unless told otherwise (NO_ID: a notification). */
export const callRequest = (g: Gen, call: Call, id: Wire | typeof NO_ID = g.id()): { [key: string]: Wire } =>
  request(g.wire(call.method), call.params, id === NO_ID ? undefined : id);

export const validCalls: Generator = {
  rule: 'valid/*',
  weight: 1,
  make(g): Draft {
    const call = validCall(g);
    return { rule: call.rule, title: `${call.method}: ${call.what}`, method: call.method, body: jsonBody(callRequest(g, call)), risky: call.risky };
  },
};
