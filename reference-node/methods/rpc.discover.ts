import type { MethodHandler } from '../rpc/types.js';
import type { NodeContext } from './NodeContext.js';

/** rpc.discover -> the OpenRPC document generated from schemas/ (OpenRPC service discovery). */
export const rpc_discover = (ctx: NodeContext): MethodHandler => () =>
  // Fault discover-invalid (TEST-ONLY, docs/faults.md): a document with no info and no methods.
  ctx.faults.has('discover-invalid') ? { openrpc: '1.3.2' } : ctx.openrpc();
