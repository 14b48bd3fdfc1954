const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/**
 * An integer as the project's JSON writes it: a number while it is exact (|value| <= 2^53 - 1), a bigint
 * beyond, which stringifyJson prints as a bare integer, digit for digit. For every u64 on the wire: heights,
 * nonces, scores, chain ids.
 */
export function jsonInteger(value: bigint): number | bigint {
  return value <= MAX_SAFE && value >= MIN_SAFE ? Number(value) : value;
}
