export { RpcClient, createClient, CLIENT_DEFAULTS } from './RpcClient.js';
export { isErrorPage, JsonRpcError } from './JsonRpcError.js';
export { TransportError, type TransportErrorCode, type BatchIdProblems } from './TransportError.js';
export { closedWithoutAnswer } from './toTransportError.js';
export type {
  BatchCall,
  BatchOutcome,
  CallOptions,
  Exchange,
  JsonRpcErrorObject,
  RawRequest,
  RawResponse,
  ResponseEvidence,
  RpcClientOptions,
  SentRequest,
  Timing,
} from './types.js';
export { createMethodClient, type MethodClient, type MethodClientOptions } from './createMethodClient.js';
export { ResultSchemaError } from './ResultSchemaError.js';
