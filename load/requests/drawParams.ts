/**
 * How each read method's params are drawn under load, by the spec's method name: one file per method that
 * takes params (load/requests/<method>.ts), none for the methods that take none (they are sent `[]`: what
 * takes params is read from the method schemas' x-params, METHOD_PARAM_NAMES). chain_sendRawTransaction's
 * params come from a corpus (load/requests/chain_sendRawTransaction.ts).
 *
 * The one table both engines read: the Node engine calls `node`; `chainrpc load k6` writes `k6`, the name of
 * the draw the k6 runtime (load/k6/chainrpc.k6.js, `paramsOf`) makes, and refuses a method without one.
 */
import type { JsonValue } from '../../core/json/index.js';
import { METHOD_PARAM_NAMES } from '../../core/schema/types.generated.js';
import type { MethodName, ParamsOf } from '../../core/schema/types.generated.js';
import type { ReadMethod } from '../scenario/Scenario.generated.js';
import { drawGetAccount } from './chain_getAccount.js';
import { drawGetBlockByHeight } from './chain_getBlockByHeight.js';
import type { DrawContext } from './DrawContext.js';

/** The draws of the k6 runtime (load/k6/chainrpc.k6.js): a recent height, a funded account. */
export type K6Draw = 'height' | 'account';

export interface ParamsDraw {
  /** The Node engine's draw. */
  node: (ctx: DrawContext) => JsonValue[];
  /** The k6 runtime's draw of the same params; absent: `chainrpc load k6` refuses the method unless its call gives fixed params. */
  k6?: K6Draw;
}

/** The read methods that take params (their schema's params are not `[]`): each needs its draw below, or the type check fails. */
export type DrawnMethod = { [M in ReadMethod]: M extends MethodName ? (ParamsOf<M> extends [] ? never : M) : M }[ReadMethod];

export const DRAW_PARAMS: Readonly<Record<DrawnMethod, ParamsDraw>> = {
  chain_getBlockByHeight: { node: drawGetBlockByHeight, k6: 'height' },
  chain_getAccount: { node: drawGetAccount, k6: 'account' },
};

/** The names of a method's params (its schema's x-params); empty for a method that takes none or one no schema describes. */
export function paramNamesOf(method: string): readonly string[] {
  return (METHOD_PARAM_NAMES as Readonly<Record<string, readonly string[]>>)[method] ?? [];
}

/** How a method's params are drawn: `none` for a method that takes none, undefined for one that takes params and has no draw. */
export function drawOf(method: string, table: Readonly<Record<string, ParamsDraw>> = DRAW_PARAMS): ParamsDraw | 'none' | undefined {
  if (paramNamesOf(method).length === 0) return 'none';
  return Object.hasOwn(table, method) ? table[method] : undefined;
}

/** The Node engine's params of a read method's call without fixed params. */
export function drawParams(method: ReadMethod, ctx: DrawContext): JsonValue[] {
  const draw = drawOf(method);
  if (draw === 'none') return [];
  if (draw === undefined) throw new Error(`${method} takes params (${paramNamesOf(method).join(', ')}) and load/requests/drawParams.ts has no draw for it`);
  return draw.node(ctx);
}
