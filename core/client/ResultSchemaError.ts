import type { Problem } from '../schema/validators.js';
import { formatProblems } from '../schema/validators.js';

/**
 * The node answered with a result, but the result breaks the method's schema (a balance as a JSON
 * number, a 63-character hash...). Like JsonRpcError this is the node-is-wrong family: the exchange
 * worked and the node's answer is wrong. Thrown by the typed helpers of createMethodClient.
 */
export class ResultSchemaError extends Error {
  override readonly name = 'ResultSchemaError';

  constructor(
    readonly method: string,
    readonly level: 'spec' | 'profile',
    readonly problems: readonly Problem[],
    readonly result: unknown,
  ) {
    super(`${method}: the result does not match the ${level === 'spec' ? "spec's" : "reference profile's"} schema: ${formatProblems([...problems])}`);
  }
}
