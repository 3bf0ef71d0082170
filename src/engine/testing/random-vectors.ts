/** Seeded random unit vectors of the embedding's 384 dimensions, for the vector mirror's tests. */

/** A linear congruential generator in [-0.5, 0.5): small and seeded, so a failure reproduces. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

/** A random unit vector: each component the sum of `terms` draws of `rand`, then normalised. */
export function randomUnit(rand: () => number, terms = 1): Float32Array {
  const v = new Float32Array(384);
  let n = 0;
  for (let d = 0; d < 384; d++) {
    let x = 0;
    for (let t = 0; t < terms; t++) x += rand();
    v[d] = x;
    n += x * x;
  }
  for (let d = 0; d < 384; d++) v[d]! /= Math.sqrt(n);
  return v;
}
