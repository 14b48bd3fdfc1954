/**
 * No candidate path answered a JSON-RPC response object: there is nothing to detect. The CLI maps it
 * to exit code 3 (the target could not be reached as JSON-RPC); `answers` says what each path did.
 */
export class NoRpcEndpointError extends Error {
  override readonly name = 'NoRpcEndpointError';

  constructor(
    readonly url: string,
    /** Path -> what it answered, in the order tried. */
    readonly answers: ReadonlyArray<{ path: string; answer: string }>,
    hint = '',
  ) {
    super(`no JSON-RPC endpoint found at ${url}${hint === '' ? '' : ` (${hint})`}:\n${answers.map((a) => `  POST ${a.path}: ${a.answer}`).join('\n')}`);
  }
}
