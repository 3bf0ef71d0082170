/**
 * Content-addressed blob store: raw bytes by sha256, outside the database, written atomically,
 * readable by the owner only (folders 0700, files 0600: rule [M1] in docs/SECURITY.md).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { access, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '#platform/private-files.ts';
import { AppError } from '#shared/errors.ts';
import { sha256 } from '../ids.ts';

export type BlobStore = {
  put(bytes: Uint8Array): string;
  /**
   * `put` without blocking the event loop, for bytes whose sha256 the caller computed as it read
   * them (src/engine/add/add-read.ts): a big drop keeps a host answering while it is stored.
   */
  putHashed(bytes: Uint8Array, sha256: string): Promise<string>;
  get(hash: string): Buffer;
  has(hash: string): boolean;
  path(hash: string): string;
};

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

export function createBlobStore(dir: string): BlobStore {
  const pathOf = (hash: string) => join(dir, hash.slice(0, 2), hash);
  // Written under a temporary name then renamed: a crash never leaves a partial blob under its hash.
  const tmpOf = (target: string) => `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  return {
    path: pathOf,
    has: (hash) => existsSync(pathOf(hash)),
    put(bytes) {
      const hash = sha256(bytes);
      const target = pathOf(hash);
      if (existsSync(target)) return hash;
      mkdirSync(join(dir, hash.slice(0, 2)), { recursive: true, mode: PRIVATE_DIR_MODE });
      const tmp = tmpOf(target);
      writeFileSync(tmp, bytes, { mode: PRIVATE_FILE_MODE });
      renameSync(tmp, target);
      return hash;
    },
    async putHashed(bytes, hash) {
      const target = pathOf(hash);
      if (await exists(target)) return hash;
      const tmp = tmpOf(target);
      const write = () => writeFile(tmp, bytes, { mode: PRIVATE_FILE_MODE });
      // The folder is there for all but the first blob of its 256: made only when the write says so.
      await write().catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
        await mkdir(join(dir, hash.slice(0, 2)), { recursive: true, mode: PRIVATE_DIR_MODE });
        await write();
      });
      await rename(tmp, target);
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
