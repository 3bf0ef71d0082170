/**
 * Content-addressed blob storage. The HTTP route verifies the sha256 while it streams the body
 * into a temporary file, and only then hands the verified file to the store: a store never holds
 * bytes under a hash they do not have.
 */
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

export type BlobStore = {
  readonly kind: 'filesystem' | 's3';
  has(hash: string): Promise<boolean>;
  /** The bytes and their size, or null when absent. */
  get(hash: string): Promise<{ stream: Readable; size: number } | null>;
  /** Moves (or uploads) an already verified file under its hash. */
  putFile(hash: string, path: string, size: number): Promise<void>;
};

const HASH_RE = /^[0-9a-f]{64}$/;

function assertHash(hash: string): void {
  if (!HASH_RE.test(hash)) throw new Error(`not a sha256: ${hash}`);
}

export function createFsBlobStore(root: string): BlobStore {
  const pathOf = (hash: string) => {
    assertHash(hash);
    return join(root, hash.slice(0, 2), hash);
  };
  const size = async (hash: string) => {
    try {
      return (await stat(pathOf(hash))).size;
    } catch {
      return null;
    }
  };
  return {
    kind: 'filesystem',
    has: async (hash) => (await size(hash)) !== null,
    async get(hash) {
      const bytes = await size(hash);
      return bytes === null ? null : { stream: createReadStream(pathOf(hash)), size: bytes };
    },
    async putFile(hash, path) {
      const target = pathOf(hash);
      await mkdir(join(root, hash.slice(0, 2)), { recursive: true });
      if ((await size(hash)) !== null) {
        await rm(path, { force: true });
        return;
      }
      await rename(path, target);
    },
  };
}
