import { fileURLToPath } from 'node:url';

/** The tiny model made by scripts/make-tiny-model.py. */
export const TINY_MODEL_DIR = fileURLToPath(new URL('../../../test/fixtures/tiny-model/', import.meta.url));
export const TINY_MODEL_ID = 'org-brain/tiny-test-model';

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}

export function norm(v: Float32Array): number {
  return Math.sqrt(cosine(v, v));
}
