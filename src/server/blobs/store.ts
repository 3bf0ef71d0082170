/**
 * Content-addressed blob storage. The HTTP route verifies the sha256 while it streams the body
 * into a temporary file, and only then hands the verified file to the store: a store never holds
 * bytes under a hash they do not have. Folders are 0700 and files 0600 (rule [M1] in
 * docs/SECURITY.md); a rename keeps the file's mode, so putFile sets it first.
 */
import { createReadStream } from 'node:fs';
import { chmod, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '#platform/private-files.ts';

export type BlobStore = {
  readonly kind: 'filesystem' | 's3';
  has(hash: string): Promise<boolean>;
  /** The bytes and their size, or null when absent. */
  get(hash: string): Promise<{ stream: Readable; size: number } | null>;
  /** Moves (or uploads) an already verified file under its hash. */
  putFile(hash: string, path: string, size: number): Promise<void>;
  /** Removes the bytes (nothing references them any more, src/server/blobs/uploads.ts). */
  delete(hash: string): Promise<void>;
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
    async delete(hash) {
      await rm(pathOf(hash), { force: true });
    },
    async putFile(hash, path) {
      const target = pathOf(hash);
      await mkdir(join(root, hash.slice(0, 2)), { recursive: true, mode: PRIVATE_DIR_MODE });
      if ((await size(hash)) !== null) {
        await rm(path, { force: true });
        return;
      }
      await chmod(path, PRIVATE_FILE_MODE);
      await rename(path, target);
    },
  };
}
