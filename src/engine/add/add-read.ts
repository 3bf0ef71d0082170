/**
 * ADD's disk side (src/engine/add/add.ts), kept off the event loop: folders are walked and files read
 * with fs/promises, and bytes are hashed a chunk at a time, so a host that stays up (`brain
 * serve`, the app's engine process) keeps answering other requests while a drop of thousands of
 * files, or of one 100 MB file, is added.
 */
import { createHash, type Hash } from 'node:crypto';
import { realpath as realpathCallback } from 'node:fs';
import { type FileHandle, lstat, open, readdir, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { promisify } from 'node:util';

/** Bytes read and hashed in one step: hashing a step takes about a millisecond. */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * fs.realpath, not fs.promises.realpath: the callback form is the same walk as realpathSync, which
 * gave every file added so far its source key; the native call may spell a path differently
 * (letter case on macOS), which would make the same file another item.
 */
export const realpathOf = promisify(realpathCallback);

/** A file to add: the path as found, and its real path when the walk already knows it. */
export type FoundFile = { path: string; real: string | null };

/**
 * A folder's files in name order, depth first; hidden files and folders are skipped, as a file
 * manager does. An entry that is a real file (not a link) has its folder's real path plus its name.
 */
async function walk(dir: string, real: string, out: FoundFile[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const full = under(dir, entry.name);
    if (entry.isDirectory()) await walk(full, under(real, entry.name), out);
    else if (entry.isFile()) out.push({ path: full, real: under(real, entry.name) });
  }
}

/**
 * join(dir, name) for a normalised folder and a name readdir gave (never `.`, `..` or a
 * separator), without join's normalising: that made a folder of 10,000 files a 20-40 ms stall.
 */
function under(dir: string, name: string): string {
  return dir.endsWith(sep) ? `${dir}${name}` : `${dir}${sep}${name}`;
}

/** Expands folders into their files; a path that is neither a file nor a folder is refused. */
export async function expandPaths(
  paths: readonly string[],
  refused: { path: string; reason: string }[],
): Promise<FoundFile[]> {
  const files: FoundFile[] = [];
  for (const p of paths) {
    const abs = resolve(p);
    try {
      const link = await lstat(abs);
      const st = link.isSymbolicLink() ? await stat(abs) : link;
      if (st.isDirectory()) await walk(abs, await realpathOf(abs), files);
      else if (st.isFile()) files.push({ path: abs, real: null });
      else refused.push({ path: abs, reason: 'not a regular file' });
    } catch {
      // Files a folder gave before it failed stay listed, as they always have.
      refused.push({ path: abs, reason: 'no such file or folder' });
    }
  }
  return files;
}

/** Reads until `bytes` is full or the file ends; returns how much was read. */
async function fill(fh: FileHandle, bytes: Buffer, from: number, hash: Hash): Promise<number> {
  let length = from;
  while (length < bytes.length) {
    const { bytesRead } = await fh.read(bytes, length, Math.min(CHUNK_BYTES, bytes.length - length), null);
    if (bytesRead === 0) break;
    hash.update(bytes.subarray(length, length + bytesRead));
    length += bytesRead;
  }
  return length;
}

/**
 * A file's bytes and their sha256, read a chunk at a time. Like readFileSync, the size its stat
 * gave is what is read; a file whose stat says 0 bytes (procfs and the like) is read to its end.
 */
export async function readHashed(path: string, size: number): Promise<{ bytes: Buffer; sha256: string }> {
  const hash = createHash('sha256');
  const fh = await open(path, 'r');
  try {
    let bytes = Buffer.allocUnsafeSlow(size);
    let length = await fill(fh, bytes, 0, hash);
    while (size === 0 && length === bytes.length) {
      const grown = Buffer.allocUnsafeSlow(bytes.length + CHUNK_BYTES);
      bytes.copy(grown, 0, 0, length);
      bytes = grown;
      const before = length;
      length = await fill(fh, bytes, length, hash);
      if (length === before) break;
    }
    return { bytes: bytes.subarray(0, length), sha256: hash.digest('hex') };
  } finally {
    await fh.close();
  }
}

/** sha256 of bytes already in memory (an upload), a chunk per turn of the event loop. */
export async function hashBytes(bytes: Uint8Array): Promise<string> {
  const hash = createHash('sha256');
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    if (at > 0) await nextTurn();
    hash.update(bytes.subarray(at, at + CHUNK_BYTES));
  }
  return hash.digest('hex');
}

/**
 * Runs `prepare(i)` for up to `ahead` items before their turn and hands each outcome to `use` in
 * order, one at a time. If `use` throws, no further item is used (ones already started finish
 * unseen).
 */
export async function inOrder<T>(
  count: number,
  ahead: number,
  prepare: (i: number) => Promise<T>,
  use: (outcome: PromiseSettledResult<T>, i: number) => Promise<void>,
): Promise<void> {
  const started = new Map<number, Promise<PromiseSettledResult<T>>>();
  const start = (i: number) => {
    if (i >= count || started.has(i)) return;
    started.set(
      i,
      prepare(i).then(
        (value) => ({ status: 'fulfilled', value }),
        (reason: unknown) => ({ status: 'rejected', reason }),
      ),
    );
  };
  for (let i = 0; i < count; i++) {
    for (let j = i; j < i + ahead; j++) start(j);
    const outcome = (await started.get(i)) as PromiseSettledResult<T>;
    started.delete(i);
    await use(outcome, i);
    // Outcomes already there are taken in one go otherwise (promise jobs run before any other
    // event): dozens of rows written back to back while every request waits.
    await nextTurn();
  }
}
