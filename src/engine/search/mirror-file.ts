/**
 * The vector mirror kept beside the database ([R9] in docs/RETRIEVAL.md): one file per stream,
 * `<database>.mirror-<stream>`, holding what is slow to rebuild from vec0's shadow tables: each
 * chunk's int8 copy of the float vectors, its per-row scales and its rows' (scope, model) keys.
 * A chunk is taken from the file only when the hash of its small blobs in the database (validity,
 * rowids, sign bits, scope and model: what vector-stream.ts compares anyway) equals the hash the
 * file recorded, so a file from another database, an older state or a crash is never trusted:
 * a chunk that does not match is rebuilt from the database, and a file that cannot be read is
 * ignored. The file is written whole to a temporary name and renamed (a reader never sees half
 * of one), owner-only like the database (rule [M1] in docs/SECURITY.md).
 *
 * A file also names the database's vector generation it mirrors, when it was written from a state
 * read whole: the database rolls a new random one in every transaction that changes vec_items
 * (src/engine/read/items.ts), so a file naming the generation the database has now mirrors it
 * exactly, and is taken whole without reading the database's blobs (at 1M sections about 88 MB,
 * 0.8 s with a cold page cache: most of a fresh host's first semantic search). A database restored
 * from a copy, or a file from another database, names another generation and is checked chunk by
 * chunk as above.
 *
 * Layout (little-endian): "OBMIRROR" | u32 version | u32 header length | header JSON | data.
 * The header names the keys (scope, model), the generation (or null) and each chunk's id, size,
 * hash and data offset; a chunk's data is keys i32[size], scales f32[size], int8[size * 384],
 * then (version 2) rowids f64[size] and sign bits u8[size * 48], each 16-byte aligned. Version 1
 * files (no rowids, sign bits or generation) are still read, chunk by chunk. Loading reads each
 * chunk's bytes straight into the WebAssembly memory the kernels search.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../../platform/private-files.ts';
import { isAlive } from '../../platform/processes.ts';

const MAGIC = Buffer.from('OBMIRROR', 'latin1');
const VERSION = 2;
const DIM = 384;
const BQ_BYTES = DIM / 8;

export type MirrorKey = { scope: string; model: string };
export type FileChunk = { id: number; size: number; hash: string; offset: number };
export type MirrorFile = {
  fd: number;
  version: number;
  keys: MirrorKey[];
  /** The database's vector generation this file mirrors whole, or null (check chunk by chunk). */
  generation: string | null;
  /** When it was written (ms since the epoch). */
  writtenMs: number;
  chunks: Map<number, FileChunk>;
  dataStart: number;
};

/** A chunk to write: its hash, size and the three arrays (views into the arena). */
export type ChunkOut = {
  id: number;
  size: number;
  hash: string;
  keys: Int32Array;
  scale: Float32Array;
  quant: Int8Array;
  rowids: Float64Array;
  codes: Uint8Array;
};

const align16 = (n: number) => (n + 15) & ~15;

/** The bytes one chunk takes in the file. */
const chunkBytes = (size: number, version: number) =>
  align16(size * 4) +
  align16(size * 4) +
  (version === 1 ? size * DIM : align16(size * DIM) + align16(size * 8) + size * BQ_BYTES);

/** The hash of a chunk's small blobs, the test of whether the file's copy still holds. */
export function chunkHash(raw: readonly Buffer[]): string {
  const h = createHash('sha1');
  for (const b of raw) {
    const len = Buffer.alloc(4);
    len.writeUInt32LE(b.length);
    h.update(len).update(b);
  }
  return h.digest('hex');
}

export const mirrorPath = (dbPath: string, stream: string) => `${dbPath}.mirror-${stream}`;

/**
 * Deletes the mirror's files of a database, after an erase ([K14] in docs/FACTS.md): they hold
 * int8 copies of the erased vectors until rewritten. A process's mirror in memory is brought up
 * to date before it writes again, so no later write brings them back.
 */
export function removeMirrorFiles(db: { memory: boolean; name: string }): void {
  if (db.memory || db.name === '') return;
  for (const stream of ['file', 'section', 'note']) rmSync(mirrorPath(db.name, stream), { force: true });
}

/** Opens and checks the file's header; null when there is none or it is not one we wrote. */
export function openMirrorFile(path: string): MirrorFile | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    const total = stat.size;
    const head = Buffer.alloc(16);
    if (readSync(fd, head, 0, 16, 0) !== 16 || !head.subarray(0, 8).equals(MAGIC)) throw new Error('magic');
    const version = head.readUInt32LE(8);
    if (version !== 1 && version !== VERSION) throw new Error('version');
    const headerLen = head.readUInt32LE(12);
    if (headerLen > total - 16) throw new Error('header');
    const json = Buffer.alloc(headerLen);
    if (readSync(fd, json, 0, headerLen, 16) !== headerLen) throw new Error('header');
    const header = JSON.parse(json.toString('utf8')) as {
      keys: MirrorKey[];
      chunks: FileChunk[];
      generation?: unknown;
    };
    const dataStart = align16(16 + headerLen);
    const chunks = new Map<number, FileChunk>();
    for (const c of header.chunks) {
      if (!Number.isInteger(c.size) || c.size < 0 || !Number.isInteger(c.offset) || c.offset < 0)
        throw new Error('chunk');
      if (dataStart + c.offset + chunkBytes(c.size, version) > total) throw new Error('truncated');
      chunks.set(c.id, c);
    }
    if (!Array.isArray(header.keys)) throw new Error('keys');
    const generation =
      version === VERSION && typeof header.generation === 'string' ? header.generation : null;
    return { fd, version, keys: header.keys, generation, writtenMs: stat.mtimeMs, chunks, dataStart };
  } catch {
    closeSync(fd);
    return null;
  }
}

/** Reads `len` bytes at `pos` into `into`; false when the file is shorter. */
function readFully(fd: number, into: Uint8Array, pos: number): boolean {
  let done = 0;
  while (done < into.length) {
    const n = readSync(fd, into, done, into.length - done, pos + done);
    if (n <= 0) return false;
    done += n;
  }
  return true;
}

type View = Int32Array | Float32Array | Float64Array | Int8Array | Uint8Array;
const bytesOf = (a: View) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/**
 * Reads one chunk's data into the given views (keys are the file's key indices, for the caller
 * to map); rowids and sign bits too when asked (a version 2 file only). False when the bytes
 * cannot be read or a key index is out of range.
 */
export function readChunk(
  file: MirrorFile,
  c: FileChunk,
  into: {
    keys: Int32Array;
    scale: Float32Array;
    quant: Int8Array;
    rowids?: Float64Array;
    codes?: Uint8Array;
  },
): boolean {
  const at = file.dataStart + c.offset;
  const keysAt = at;
  const scaleAt = keysAt + align16(c.size * 4);
  const quantAt = scaleAt + align16(c.size * 4);
  const rowidsAt = quantAt + align16(c.size * DIM);
  const codesAt = rowidsAt + align16(c.size * 8);
  if ((into.rowids || into.codes) && file.version === 1) return false;
  if (!readFully(file.fd, bytesOf(into.keys), keysAt)) return false;
  if (!readFully(file.fd, bytesOf(into.scale), scaleAt)) return false;
  if (!readFully(file.fd, bytesOf(into.quant), quantAt)) return false;
  if (into.rowids && !readFully(file.fd, bytesOf(into.rowids), rowidsAt)) return false;
  if (into.codes && !readFully(file.fd, bytesOf(into.codes), codesAt)) return false;
  for (const k of into.keys) if (k < -1 || k >= file.keys.length) return false;
  return true;
}

export function closeMirrorFile(file: MirrorFile): void {
  try {
    closeSync(file.fd);
  } catch {
    // already closed
  }
}

/**
 * Removes the temporary files of writes that never finished: a process that ended (was killed,
 * lost power) in the middle of one. At 1M sections one is about 450 MB.
 */
function removeStaleTemps(path: string): void {
  const prefix = `${basename(path)}.tmp-`;
  try {
    for (const name of readdirSync(dirname(path))) {
      if (!name.startsWith(prefix)) continue;
      const pid = Number(name.slice(prefix.length).split('-')[0]);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isAlive(pid))
        rmSync(join(dirname(path), name), { force: true });
    }
  } catch {
    // an unreadable folder: the write below fails too, or leaves them
  }
}

/** Writes the whole mirror of one stream; a failure (a read-only folder, a full disk) leaves no file behind. */
export function writeMirrorFile(
  path: string,
  keys: readonly MirrorKey[],
  chunks: readonly ChunkOut[],
  generation: string | null,
): boolean {
  removeStaleTemps(path);
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  let fd: number | null = null;
  try {
    let offset = 0;
    const entries: FileChunk[] = chunks.map((c) => {
      const e = { id: c.id, size: c.size, hash: c.hash, offset };
      offset += align16(chunkBytes(c.size, VERSION));
      return e;
    });
    const json = Buffer.from(JSON.stringify({ keys, generation, chunks: entries }), 'utf8');
    const head = Buffer.alloc(16);
    MAGIC.copy(head, 0);
    head.writeUInt32LE(VERSION, 8);
    head.writeUInt32LE(json.length, 12);
    const dataStart = align16(16 + json.length);
    fd = openSync(tmp, 'wx', PRIVATE_FILE_MODE);
    writeSync(fd, head, 0, 16, 0);
    writeSync(fd, json, 0, json.length, 16);
    chunks.forEach((c, i) => {
      const at = dataStart + (entries[i] as FileChunk).offset;
      const quantAt = at + 2 * align16(c.size * 4);
      const rowidsAt = quantAt + align16(c.size * DIM);
      writeAll(fd as number, bytesOf(c.keys), at);
      writeAll(fd as number, bytesOf(c.scale), at + align16(c.size * 4));
      writeAll(fd as number, bytesOf(c.quant), quantAt);
      writeAll(fd as number, bytesOf(c.rowids), rowidsAt);
      writeAll(fd as number, bytesOf(c.codes), rowidsAt + align16(c.size * 8));
    });
    closeSync(fd);
    fd = null;
    renameSync(tmp, path);
    return true;
  } catch {
    if (fd !== null) closeSync(fd);
    rmSync(tmp, { force: true });
    return false;
  }
}

function writeAll(fd: number, bytes: Uint8Array, pos: number): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, pos + done);
}
