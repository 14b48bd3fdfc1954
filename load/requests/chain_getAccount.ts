import type { JsonValue } from '../../core/json/index.js';
import type { DrawContext } from './DrawContext.js';

/** chain_getAccount's params under load: one of the accounts the harness funded, so every read finds an account (what an unknown one gets is the node's choice). */
export function drawGetAccount(ctx: DrawContext): JsonValue[] {
  const index = Math.floor(ctx.random() * ctx.accounts.length);
  return [ctx.accounts[index] ?? '0'.repeat(64)];
}
