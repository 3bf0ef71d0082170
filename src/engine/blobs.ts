/**
 * Content-addressed blob store: raw bytes by sha256, outside the database, written atomically,
 * readable by the owner only (folders 0700, files 0600: rule [M1] in docs/SECURITY.md).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../shared/errors.ts';
import { sha256 } from './ids.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './util/private-files.ts';

export type BlobStore = {
  put(bytes: Uint8Array): string;
  get(hash: string): Buffer;
  has(hash: string): boolean;
  path(hash: string): string;
};

export function createBlobStore(dir: string): BlobStore {
  const pathOf = (hash: string) => join(dir, hash.slice(0, 2), hash);
  return {
    path: pathOf,
    has: (hash) => existsSync(pathOf(hash)),
    put(bytes) {
      const hash = sha256(bytes);
      const target = pathOf(hash);
      if (existsSync(target)) return hash;
      mkdirSync(join(dir, hash.slice(0, 2)), { recursive: true, mode: PRIVATE_DIR_MODE });
      // Write to a temporary name then rename: a crash never leaves a partial blob under its hash.
      const tmp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      writeFileSync(tmp, bytes, { mode: PRIVATE_FILE_MODE });
      renameSync(tmp, target);
      return hash;
    },
    get(hash) {
      try {
        return readFileSync(pathOf(hash));
      } catch {
        throw new AppError(
          'not-found',
          `The stored bytes ${hash.slice(0, 12)}… are missing from the blob store.`,
        );
      }
    },
  };
}
