import type { JsonValue } from '../../core/json/index.js';
import type { DrawContext } from './DrawContext.js';

/** chain_getBlockByHeight's params under load: one of the recent heights that had a block at the start (explorers read near the tip). */
export function drawGetBlockByHeight(ctx: DrawContext): JsonValue[] {
  const h = ctx.heights;
  if (h === null) return [0];
  return [h.from + Math.floor(ctx.random() * (h.to - h.from + 1))];
}
