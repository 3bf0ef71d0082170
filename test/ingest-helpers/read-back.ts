/** The central ingest invariant, checked for every chunk of an extraction. */
import { expect } from 'vitest';
import type { Extraction } from '#engine/ingest/index.ts';
import { readLocator } from '#engine/ingest/index.ts';
import type { FileFormat } from '#shared/types.ts';

export async function expectReadBack(bytes: Uint8Array, format: FileFormat, ex: Extraction): Promise<void> {
  const keys = new Set<string>();
  for (const chunk of ex.chunks) {
    expect(chunk.body.trim()).not.toBe('');
    expect(await readLocator(bytes, format, chunk.locator)).toBe(chunk.body);
    keys.add(chunk.key);
  }
  expect(keys.size).toBe(ex.chunks.length);
}
