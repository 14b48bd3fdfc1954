import type { JsonValue } from '../../core/json/index.js';
import { isChainError } from '../chain/ChainError.js';
import { schemaCatalog } from '../../core/schema/schemaCatalog.js';
import { RpcMethodError } from '../rpc/RpcMethodError.js';

interface ErrorDefinition {
  'x-code'?: number;
  'x-message'?: string;
}

let table: Map<string, { code: number; message: string }> | undefined;

/** Error name (a definition of schemas/errors.schema.json) -> its code and message, read once. */
function errorTable(): Map<string, { code: number; message: string }> {
  if (!table) {
    const defs = schemaCatalog().errors.definitions as unknown as Record<string, ErrorDefinition>;
    table = new Map(
      Object.entries(defs).flatMap(([name, d]) =>
        d['x-code'] === undefined || d['x-message'] === undefined ? [] : [[name, { code: d['x-code'], message: d['x-message'] }] as const],
      ),
    );
  }
  return table;
}

/**
 * The JSON-RPC error for a named profile error: `rpcError('NonceGap', {reason, expected, actual})`.
 * Codes and messages come from schemas/errors.schema.json, so the node cannot drift from the contract.
 */
export function rpcError(name: string, data: { reason: string } & Record<string, JsonValue>): RpcMethodError {
  const entry = errorTable().get(name);
  if (!entry) throw new Error(`no error named ${name} in schemas/errors.schema.json`);
  return new RpcMethodError(entry.code, entry.message, data);
}

/** A chain refusal (ChainError) as the profile's JSON-RPC error; anything else passes as it is (a bug: internal error). */
export function toRpc(err: unknown): unknown {
  // isChainError, not instanceof: instanceof on the generic class would type the data as any.
  return isChainError(err) ? rpcError(err.name, err.data) : err;
}
