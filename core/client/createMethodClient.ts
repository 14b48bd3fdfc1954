import { METHOD_NAMES } from '../schema/types.generated.js';
import type { MethodName, ParamsOf, ResultOf } from '../schema/types.generated.js';
import { validators } from '../schema/validators.js';
import { ResultSchemaError } from './ResultSchemaError.js';
import type { RpcClient } from './RpcClient.js';
import type { CallOptions } from './types.js';

/** One typed function per method, named by its wire name: `node.chain_getAccount(address)`. */
export type MethodClient = {
  readonly [M in MethodName]: (...params: ParamsOf<M>) => Promise<ResultOf<M>>;
};

export interface MethodClientOptions {
  /**
   * Check each result against the method's schema before handing it out typed, so the static type
   * is never a lie: 'profile' (default; the reference profile's exact shapes), 'spec' (only what the
   * spec states: use it for networks with other choices; the static type is then optimistic) or false.
   */
  readonly validate?: 'profile' | 'spec' | false;
  /** Options for every call (timeout, signal, headers). */
  readonly call?: CallOptions;
}

/**
 * Typed helpers generated from schemas/: params and results come from types.generated.ts, and
 * results are validated against the same schemas.
 *
 * @throws ResultSchemaError when a result breaks the schema; JsonRpcError / TransportError as RpcClient.call
 */
export function createMethodClient(client: RpcClient, options: MethodClientOptions = {}): MethodClient {
  const level = options.validate ?? 'profile';
  const entries = METHOD_NAMES.map((method) => {
    const fn = async (...params: unknown[]): Promise<unknown> => {
      const result = await client.call(method, params, options.call);
      if (level !== false) {
        const verdict = validators().result(method, result, level);
        if (!verdict.ok) throw new ResultSchemaError(method, level, verdict.problems, result);
      }
      return result;
    };
    return [method, fn] as const;
  });
  // The mapped type cannot be built key by key in a way TypeScript checks; each entry above is
  // exactly (...ParamsOf<M>) => Promise<ResultOf<M>> for its own M.
  return Object.freeze(Object.fromEntries(entries)) as unknown as MethodClient;
}
