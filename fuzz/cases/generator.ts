/**
 * What every case generator shares: `Gen`, a case in the making (its PRNG, the context, the methods it may
 * call), `Draft`, what a generator hands back before caseAt turns it into a FuzzCase (bytes, json, risky), and
 * `Generator`, one entry of a family's table (a rule, its weight, its maker).
 */
import type { MethodName } from '../../core/schema/types.generated.js';
import { wireMethod } from '../../profile/Profile.js';
import type { CaseContext } from './CaseContext.js';
import type { Draw } from './random.js';
import { txPool, type TxPool } from './transactions.js';
import { byteLength, type Body, type Wire } from './wire.js';

/** A case in the making. */
export interface Gen {
  readonly draw: Draw;
  readonly ctx: CaseContext;
  readonly seed: number;
  readonly index: number;
  /** Methods a valid call may call (chain_faucetClaim only when `only` names it). */
  readonly callable: readonly MethodName[];
  /** Methods an invalid-params case may call. */
  readonly targets: readonly MethodName[];
  /** `only` names methods: every case must call one of them. */
  readonly restricted: boolean;
  /** The methods `only` names. */
  readonly asked: ReadonlySet<string>;
  /** The seed's signed transactions. */
  txs(): TxPool;
  /** The node's name for a method. */
  wire(method: MethodName): string;
  /** The case's ordinary id (a number, now and then a string). */
  id(): Wire;
  /** Bytes a body may still take beside `used` bytes (the cap, less one, less `used`). */
  room(used: number | string): number;
}

/** What a generator makes: caseAt adds the seed, index and family, writes the bytes and sets json. */
export interface Draft {
  /** `<family>/<rule>`. */
  rule: string;
  title: string;
  method?: MethodName;
  body: Body;
  risky?: boolean;
  /** POST application/json unless said. */
  http?: { method: string; contentType: string | undefined; omitContentLength?: boolean };
}

export interface Generator {
  /** The rule it makes (`valid/*`: the valid family's rule follows from the values drawn). */
  rule: string;
  weight: number;
  /** Calls no method (a scalar, an empty body): left out when `only` names methods. */
  methodless?: boolean;
  make(g: Gen): Draft | undefined;
}

export function makeGen(draw: Draw, ctx: CaseContext, seed: number, index: number, plan: { callable: readonly MethodName[]; targets: readonly MethodName[]; restricted: boolean; asked: ReadonlySet<string> }): Gen {
  let pool: TxPool | undefined;
  let ordinaryId: Wire | undefined;
  return {
    draw,
    ctx,
    seed,
    index,
    callable: plan.callable,
    targets: plan.targets,
    restricted: plan.restricted,
    asked: plan.asked,
    txs: () => (pool ??= txPool(ctx.profile.codec, seed, ctx.chain.chainId, ctx.profile.fee)),
    wire: (method) => wireMethod(ctx.profile, method),
    id: () => (ordinaryId ??= draw.chance(0.8) ? index : `c${index}`),
    room: (used) => ctx.maxBodyBytes - 1 - (typeof used === 'number' ? used : byteLength(used)),
  };
}

/** A method drawn from `methods`, each as often as `weightOf` says. */
export function drawMethod(g: Gen, methods: readonly MethodName[], weightOf: (m: MethodName) => number): MethodName {
  return methods.length === 1 ? (methods[0] as MethodName) : g.draw.weighted(methods.map((m) => [m, weightOf(m)] as const));
}
