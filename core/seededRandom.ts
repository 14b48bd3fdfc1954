/**
 * A seeded PRNG (splitmix32): the same seed gives the same sequence in every thread and every run, so load
 * threads can split one Poisson schedule between them, and a fuzz case is made again from its seed alone.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    z ^= z >>> 16;
    // [0, 1) with 32 bits of resolution.
    return (z >>> 0) / 4294967296;
  };
}
