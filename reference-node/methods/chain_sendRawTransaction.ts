import type { JsonValue } from '../../core/json/index.js';
import type { MethodHandler } from '../rpc/types.js';
import type { NodeContext } from './NodeContext.js';

/** chain_sendRawTransaction [hex] -> the transaction hash, once admitted to the mempool (rules: docs/chain.md). */
export const chain_sendRawTransaction = (ctx: NodeContext): MethodHandler =>
  Object.assign((params: JsonValue[]) => ctx.submitTransaction(params[0] as string), {
    // In a batch, every transaction's signature starts verifying before the first is admitted (Chain.prepare).
    prepare(params: JsonValue | undefined): void {
      const hex = Array.isArray(params) ? params[0] : undefined;
      if (typeof hex === 'string') ctx.chain.prepare(hex);
    },
  });
