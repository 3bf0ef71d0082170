/**
 * A tiny cache inside the extraction worker: the canonical text of the last few documents, keyed by
 * a hash of their bytes, so reading back every chunk of a file does not re-parse it each time.
 */
import { createHash } from 'node:crypto';

const MAX_ENTRIES = 3;
const entries = new Map<string, unknown>();

export function bytesKey(kind: string, bytes: Uint8Array): string {
  return `${kind}:${createHash('sha256').update(bytes).digest('hex')}`;
}

export async function cached<T>(key: string, make: () => Promise<T>): Promise<T> {
  if (entries.has(key)) {
    const hit = entries.get(key) as T;
    entries.delete(key);
    entries.set(key, hit);
    return hit;
  }
  const value = await make();
  entries.set(key, value);
  while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
  return value;
}

export function forget(key: string): void {
  entries.delete(key);
}

export function peek<T>(key: string): T | undefined {
  return entries.get(key) as T | undefined;
}
