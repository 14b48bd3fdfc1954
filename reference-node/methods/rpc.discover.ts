import type { MethodHandler } from '../rpc/types.js';
import type { NodeContext } from './NodeContext.js';

/** rpc.discover -> the OpenRPC document (schemas/openrpc.json, generated from schemas/). */
export const rpc_discover = (ctx: NodeContext): MethodHandler => () => ctx.openrpc();
