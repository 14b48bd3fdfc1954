/**
 * Exact non-negative rationals over bigint, as k6 reads execution segments (big.Rat): fractions ("1/3"),
 * decimals ("0.5") and whole percentages ("50%"). Only what executionSegments.ts needs.
 */

/** A non-negative rational, in lowest terms (d > 0). */
export interface Rat {
  n: bigint;
  d: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a < 0n ? -a : a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};
export const rat = (n: bigint, d: bigint): Rat => {
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
};
export const sub = (a: Rat, b: Rat): Rat => rat(a.n * b.d - b.n * a.d, a.d * b.d);
export const add = (a: Rat, b: Rat): Rat => rat(a.n * b.d + b.n * a.d, a.d * b.d);
/** -1, 0 or 1 as a is below, equal to or above b. */
export const cmp = (a: Rat, b: Rat): number => {
  const x = a.n * b.d;
  const y = b.n * a.d;
  return x < y ? -1 : x > y ? 1 : 0;
};
export const ZERO = rat(0n, 1n);
export const ONE = rat(1n, 1n);
/** "1/3", or "2" for a whole number. */
export const showRat = (r: Rat): string => (r.d === 1n ? r.n.toString() : `${r.n}/${r.d}`);

/** A fraction ("1/3"), a decimal ("0.5", ".5") or a whole percentage ("50%"); undefined for anything else. */
export function parseRat(text: string): Rat | undefined {
  let m = /^(\d+)%$/.exec(text);
  if (m) return rat(BigInt(m[1] ?? '0'), 100n);
  m = /^(\d+)\/(\d+)$/.exec(text);
  if (m) return m[2] === undefined || BigInt(m[2]) === 0n ? undefined : rat(BigInt(m[1] ?? '0'), BigInt(m[2]));
  m = /^(\d*)(?:\.(\d+))?$/.exec(text);
  if (m && text !== '' && text !== '.') {
    const frac = m[2] ?? '';
    return rat(BigInt(`${m[1] ?? ''}${frac}` || '0'), 10n ** BigInt(frac.length));
  }
  return undefined;
}
