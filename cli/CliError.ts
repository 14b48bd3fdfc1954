/**
 * The CLI's own errors. The exit codes of every command are one table, EXIT in core/errors/exitCodes.ts
 * (re-exported here for the commands); an error's kind decides its code (core/errors/ChainrpcError.ts).
 */
import { ChainrpcError, type ChainrpcErrorOptions, type ErrorKind } from '../core/errors/ChainrpcError.js';

export { EXIT, type ExitCode } from '../core/errors/exitCodes.js';

/** An error the user can fix, said by a command; printed without a stack trace, exiting as its kind says (usage: 2). */
export class CliError extends ChainrpcError {
  constructor(
    message: string,
    readonly kind: ErrorKind = 'usage',
    options?: ChainrpcErrorOptions,
  ) {
    super(message, options);
  }

  /** Another chainrpc error, said in a command's words (`load sweep: <its message>`): the same kind, details and cause. */
  static within(context: string, err: ChainrpcError): CliError {
    return new CliError(`${context}: ${err.message}`, err.kind, { details: err.details, cause: err });
  }
}
