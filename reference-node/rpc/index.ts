// The reference node's JSON-RPC 2.0 over HTTP layer (docs/transport.md).
export { createRpcServer, RPC_SERVER_DEFAULTS, type RpcServer, type RpcServerOptions } from './createRpcServer.js';
export { handleRpcBody, type HandleRpcBodyOptions } from './handleRpcBody.js';
export { RpcMethodError } from './RpcMethodError.js';
export { RPC_ERROR, errorResponse, standardError, type RpcErrorKind, type RpcId } from './errorResponse.js';
export type { CallContext, CallOutcome, MethodHandler, MethodTable, MetricsSource, OnCall, OnSettled } from './types.js';
export { REFERENCE_TRANSPORT_RULES, isJsonContentType, schemaParamsCheck, type Exchange, type HttpAnswer, type ParamsVerdict, type TransportRules } from './TransportRules.js';
export { INTERNAL_REASON } from './handleRpcBody.js';
