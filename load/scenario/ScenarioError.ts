/**
 * A scenario that cannot run: a file that is not there or not JSON, or a definition that breaks a rule of
 * schemas/load/scenario.schema.json or of docs/load.md. The message names the JSON pointer and the rule,
 * and the CLI exits 2 with it.
 */
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';
export class ScenarioError extends ChainrpcError {
  override readonly name = 'ScenarioError';
  readonly kind = 'usage';
  constructor(
    message: string,
    /** The JSON pointer of the offending value ("" for the whole scenario), when there is one. */
    readonly pointer?: string,
    /** The schema rule or the docs rule that failed. */
    readonly rule?: string,
  ) {
    super(message);
  }
}
