/**
 * No candidate path answered a JSON-RPC response object: there is nothing to detect. The CLI maps it
 * to exit code 3 (the target could not be reached as JSON-RPC); `answers` says what each path did, and
 * `unreachable` whether nothing answered at all (then the paths are not the question: the node is).
 */
import { ChainrpcError } from '../../core/errors/ChainrpcError.js';
export class NoRpcEndpointError extends ChainrpcError {
  override readonly name = 'NoRpcEndpointError';
  readonly kind = 'target';

  constructor(
    readonly url: string,
    /** Path -> what it answered, in the order tried. */
    readonly answers: ReadonlyArray<{ path: string; answer: string }>,
    hint = '',
    /** Nothing answered HTTP at all: refused, no such host, or no answer in time. */
    readonly unreachable = false,
  ) {
    super(`no JSON-RPC endpoint found at ${url}${hint === '' ? '' : ` (${hint})`}:\n${answers.map((a) => `  POST ${a.path}: ${a.answer}`).join('\n')}`);
  }
}
