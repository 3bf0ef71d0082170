/**
 * Files at rest readable by their owner only (rule [M1] in docs/SECURITY.md): a workspace home and
 * a server data folder are 0700, every folder in them 0700 and every file 0600. Our own writes
 * pass these modes explicitly; the folder mode is the guard for what libraries create inside
 * (PGlite sets its own file modes, see src/server/main.ts). A folder made by an older release with
 * 0755/0644 modes is tightened, tree and all, the first time it is opened: the top folder's mode
 * says whether that walk is needed, so a tightened home with 100k blobs is not walked again.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** POSIX modes only: on Windows chmod toggles a read-only flag and the profile's ACLs are the guard. */
const ENFORCED = process.platform !== 'win32';

const modeOf = (path: string): number => statSync(path).mode & 0o777;

function ignoreVanished(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    // A temporary file (an upload, a blob being renamed, PGlite's own) may go away mid-walk.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** Creates `dir` 0700 when missing (its parents keep the usual modes); tightens a loose one once. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dirname(dir), { recursive: true });
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (ENFORCED && modeOf(dir) !== PRIVATE_DIR_MODE) tightenTree(dir);
}

/**
 * Folders 0700 and files 0600 under `dir`, `dir` itself last: a walk cut short leaves the top
 * folder loose, so the next open walks again. Symbolic links are left alone (chmod would follow
 * them out of the folder).
 */
export function tightenTree(dir: string): void {
  if (!ENFORCED) return;
  ignoreVanished(() => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) tightenTree(path);
      else if (entry.isFile()) ignoreVanished(() => chmodSync(path, PRIVATE_FILE_MODE));
    }
    chmodSync(dir, PRIVATE_DIR_MODE);
  });
}

/**
 * Makes `path` exist as a 0600 file, or tightens it. Used for the SQLite database before SQLite
 * opens it: SQLite gives the `-wal` and `-shm` files the database file's mode. An existing file
 * is never opened here (closing a second descriptor of a database file would drop the POSIX
 * locks this process's SQLite connections hold on it); only its mode is changed.
 */
export function ensurePrivateFile(path: string): void {
  if (!existsSync(path)) {
    try {
      closeSync(openSync(path, 'wx', PRIVATE_FILE_MODE));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  if (ENFORCED && modeOf(path) !== PRIVATE_FILE_MODE) chmodSync(path, PRIVATE_FILE_MODE);
}

/** Tightens `path` if it exists and is looser than 0600 (the SQLite journal files of an old home). */
export function tightenFile(path: string): void {
  if (!ENFORCED) return;
  ignoreVanished(() => {
    if (modeOf(path) !== PRIVATE_FILE_MODE) chmodSync(path, PRIVATE_FILE_MODE);
  });
}
