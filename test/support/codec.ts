/** Helpers shared by the codec's tests: fast-check arbitraries and error-code capture (not public API). */
import fc from 'fast-check';
import { CodecError } from '../../core/codec/CodecError.js';
import { bytesToHex } from '../../core/codec/hex.js';
import { U128_MAX, U64_MAX } from '../../core/codec/u128.js';
import type { TransactionRequest } from '../../core/codec/types.js';

export const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 });
export const privateKeyArb = bytes32;
export const addressArb = bytes32.map(bytesToHex);

/** Mostly full-range, sometimes tiny or at the edges, so both ends of the encodings are exercised. */
const uint = (max: bigint): fc.Arbitrary<bigint> =>
  fc.oneof(
    fc.bigInt({ min: 0n, max }),
    fc.bigInt({ min: 0n, max: max < 1000n ? max : 1000n }),
    fc.constantFrom(...[0n, 1n, max - 1n, max].filter((x) => x >= 0n && x <= max)),
  );

export const txRequestArb: fc.Arbitrary<TransactionRequest> = fc
  .record({ chainId: uint(U64_MAX), to: addressArb, value: uint(U128_MAX), nonce: uint(U64_MAX) })
  .chain((tx) => uint(U128_MAX - tx.value).map((fee) => ({ ...tx, fee })));

/** The CodecError code `run` throws, or 'no error'; anything else thrown fails the test. */
export function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof CodecError) return error.code;
    throw error;
  }
  return 'no error';
}

/** Rethrows `error` unless it is a CodecError (for catch blocks in property tests). */
export function assertCodecError(error: unknown): asserts error is CodecError {
  if (!(error instanceof CodecError)) throw error;
}
