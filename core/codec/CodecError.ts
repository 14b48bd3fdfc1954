/**
 * The one error type of the transaction codec. `code` is stable (tests, callers and the reference
 * node switch on it); `message` says what is wrong and how to fix it, and may change wording.
 */
import { ChainrpcError } from '../errors/ChainrpcError.js';
export type CodecErrorCode =
  | 'INPUT_TYPE' // a value of the wrong JavaScript type (e.g. a number where a bigint is required)
  | 'EMPTY_INPUT'
  | 'HEX_PREFIX'
  | 'HEX_ODD_LENGTH'
  | 'HEX_INVALID_CHAR'
  | 'WRONG_LENGTH'
  | 'UNSUPPORTED_VERSION'
  | 'U64_RANGE'
  | 'U128_RANGE'
  | 'U128_FORMAT'
  | 'AMOUNT_FORMAT'
  | 'AMOUNT_PRECISION'
  | 'AMOUNT_OVERFLOW'
  | 'SENDER_MISMATCH';

/** A transaction, address or amount that cannot be encoded or decoded as given (usage: exit 2). */
export class CodecError extends ChainrpcError {
  override readonly name = 'CodecError';
  readonly kind = 'usage';
  readonly code: CodecErrorCode;

  constructor(code: CodecErrorCode, message: string, options?: ErrorOptions) {
    super(message, { cause: options?.cause });
    this.code = code;
  }
}

/** Type guard usable on `unknown` catch variables. */
export function isCodecError(error: unknown): error is CodecError {
  return error instanceof CodecError;
}

/** Quote a user-supplied value for an error message, shortened so a 1 MB input stays readable. */
export function quote(value: string, max = 40): string {
  const shown = value.length > max ? `${value.slice(0, max)}...` : value;
  return JSON.stringify(shown);
}
