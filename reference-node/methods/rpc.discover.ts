import type { MethodHandler } from '../rpc/types.js';
import type { NodeContext } from './NodeContext.js';

/** rpc.discover -> the OpenRPC document generated from schemas/ (OpenRPC service discovery). */
export const rpc_discover = (ctx: NodeContext): MethodHandler => () => ctx.openrpc();
