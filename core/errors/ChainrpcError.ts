/**
 * The base of every error chainrpc means a user to read (in the spirit of viem's BaseError): a short
 * message, optional details (the longer explanation: what exactly was wrong, how to fix it), a cause, and
 * its kind, from which the CLI's exit code follows in one place (cli/chainrpc.ts, through exitCodeOfKind in
 * ./exitCodes.ts). Each subclass means one thing and has one kind:
 *
 *   usage          the command line or an input file is wrong (exit 2)
 *   configuration  a setting, the profile, the data directory do not fit (exit 2)
 *   target         the node could not be reached, or not as JSON-RPC (exit 3)
 *   node           the node answered, and is wrong or refused (exit 1)
 *   interrupted    the user stopped the command (exit 130)
 *   internal       a bug in chainrpc (exit 4)
 *
 * An error that is not a ChainrpcError reaching the CLI is a bug: it is printed with its stack (exit 4).
 */
import { exitCodeOfKind, type ErrorKind, type ExitCode } from './exitCodes.js';

export type { ErrorKind } from './exitCodes.js';

export interface ChainrpcErrorOptions {
  /** The longer explanation, printed under the message. */
  details?: string | undefined;
  cause?: unknown;
}

export abstract class ChainrpcError extends Error {
  abstract readonly kind: ErrorKind;
  readonly details: string | undefined;

  constructor(message: string, options: ChainrpcErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.details = options.details;
  }

  /** The exit code of a command this error stops. */
  get exitCode(): ExitCode {
    return exitCodeOfKind(this.kind);
  }

  /** What the CLI prints: the message, and the details under it. */
  explain(): string {
    return this.details === undefined || this.details === '' ? this.message : `${this.message}\n${this.details}`;
  }
}
