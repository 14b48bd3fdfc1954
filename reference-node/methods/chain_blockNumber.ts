import type { MethodHandler } from '../rpc/types.js';
import { toJsonInt } from '../node/toRpcError.js';
import type { NodeContext } from './NodeContext.js';

/** chain_blockNumber -> the latest committed height (genesis is 0). */
export const chain_blockNumber = (ctx: NodeContext): MethodHandler => {
  const { faults } = ctx;
  let calls = 0;
  return () => {
    let height = ctx.chain.height();
    // Fault injection, TEST-ONLY (docs/faults.md): each line makes the answer deliberately wrong.
    if (faults.has('block-missing')) height += 1n;
    if (faults.has('height-far-ahead')) height += 1000n;
    if (faults.has('height-regresses') && ++calls % 3 === 0) height = height > 2n ? height - 2n : 0n;
    if (faults.has('block-number-hex')) return `0x${height.toString(16)}`;
    if (faults.has('block-number-string')) return height.toString();
    return toJsonInt(height);
  };
};
