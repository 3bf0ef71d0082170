/**
 * The fast vector stream. sqlite-vec 0.1.9's own KNN (vec0 MATCH) costs ~50-90 ms per query at
 * 100k rows on this hardware: a per-chunk O(n*k) top-k selection, scalar cosine, and a point
 * lookup into the metadata text table for every row whose model id is longer than 12 bytes. Its
 * point lookups (for rescoring) cost ~150 us each. So this module keeps a per-database, in-memory
 * mirror of the vec0 chunks, read straight from vec0's shadow tables (layout of sqlite-vec v0.1.9,
 * checked at load), and searches it in two passes:
 *
 *  1. binary first pass: a Hamming distance between sign bits (the `embedding_bq` column),
 *     weighted toward the query's largest dimensions (TOP_DIMS), over every row of the stream
 *     whose scope and model pass the caller's filter;
 *  2. rescoring of the best candidates with an int8 copy of the float vector (per-row scale),
 *     which ranks by cosine almost exactly (quantization error ~1e-3 of a unit dot product).
 *
 * The mirror stays in step with the database: when the vector generation changed since the
 * last call (a change to vec_items, by this connection or another process), each chunk's small blobs (validity,
 * rowids, sign bits, scope and model metadata: ~88 KB per 1024 rows) are compared with the cached
 * copies, and only chunks that differ are rebuilt (their float32 blob read and re-quantized).
 * Anything unexpected (another sqlite-vec layout) turns the mirror off and the caller falls back
 * to the plain vec0 query. A process's first load takes the chunks that still hold from the file
 * kept beside the database (mirror-file.ts, [R9] in docs/RETRIEVAL.md) and rebuilds the rest; a
 * file that names the database's current generation is taken whole, without reading the blobs.
 */
import { type Db, stmt } from '../db/driver.ts';
import { isRandomGeneration, vectorGeneration } from '../read/items.ts';
import {
  chunkHash,
  closeMirrorFile,
  type FileChunk,
  type MirrorFile,
  mirrorPath,
  openMirrorFile,
  readChunk,
  writeMirrorFile,
} from './mirror-file.ts';
import { FILTERED, type Kernels, kernels } from './simd.ts';

const DIM = 384;
const BQ_BYTES = DIM / 8;
const F32_BYTES = DIM * 4;
const META_SLOT = 16; // int32 length + 12-byte prefix, per text metadata value
const META_PREFIX = 12;
/**
 * The first pass weighs a differing sign bit 3 in the query's TOP_DIMS largest dimensions (by
 * magnitude) and 1 in the others: a sign that differs where the query is large costs its cosine
 * more than one where it is near zero. Measured on the speed bench's corpora (random unit
 * vectors, the readers' scopes, 20-40 queries, recall@50 of the whole stream against exact
 * cosine): rescoring the best 10 % by this distance found 0.961 at 100k and 0.978 at 1M, where
 * the best 25 % by plain Hamming found 0.960 and 0.975, so 2.5 times fewer rows are rescored
 * (the section stream at 100k: 5.3 ms to 3.0 ms, p50).
 */
const TOP_DIMS = 128;

/**
 * How many first-pass candidates get rescored: RESCORE_AT of RESCORE_BASE allowed rows (10 %),
 * growing as the rows' count to the power RESCORE_GROWTH, and at least RESCORE_MIN. The more
 * rows, the smaller the share of them the best 50 are, and the first pass sorts them as well: at
 * 1M sections (900k rows in the readers' scopes) rescoring 5 % found recall@50 0.967 and 3 %
 * 0.949, where 10 % found 0.961 at 100k; so the rows rescored grow 5 times for 10 times the rows
 * (10 ** 0.7 ≈ 5), where a fixed 10 % rescored 90k rows at 1M for 0.978.
 */
const RESCORE_AT = 10_000;
const RESCORE_BASE = 100_000;
const RESCORE_GROWTH = 0.7;
const RESCORE_MIN = 2500;

/** How many of `n` allowed first-pass rows are rescored (exported for tests). */
export const rescoreCount = (n: number, limit: number): number =>
  Math.min(n, Math.max(RESCORE_MIN, Math.ceil(RESCORE_AT * (n / RESCORE_BASE) ** RESCORE_GROWTH), limit));

/**
 * The rows of every mirror of one database live in one WebAssembly memory (the kernels read them
 * there), in one slot per chunk: keys (i32), distances (u16, scratch), sign bits, int8 values.
 */
type Arena = { k: Kernels; top: number; free: Map<number, number[]>; scratch: number; scratchBytes: number };

type Chunk = {
  id: number;
  /**
   * The raw blobs this chunk was built from (validity, rowids, sign bits, scope, model); null for
   * a chunk taken from a file that mirrors the database whole (its hash then tells).
   */
  raw: Buffer[] | null;
  /** Their hash: the test of the file's copy (mirror-file.ts). */
  hash: string;
  size: number;
  rowids: Float64Array;
  scale: Float32Array;
  /** Offsets in the arena: the slot, its interned (scope, model) ids (-1 = empty), distances, codes, int8. */
  slot: number;
  bytes: number;
  keys: number;
  dist: number;
  codes: number;
  quant: number;
};

type Mirror = {
  /** vectorGeneration() when last checked: unchanged means vec_items was not written since. */
  stamp: string;
  chunks: Map<number, Chunk>;
  keyIds: Map<string, number>;
  keyList: { scope: string; model: string }[];
  /** The file beside the database (null for an in-memory one); read on the first load only. */
  path: string | null;
  /** Slots rebuilt from the database since the file was last written. */
  sinceSave: number;
  /**
   * Chunks the last load took from the file and from the database, and whether the file was
   * taken whole, without reading the database's blobs (benchmarks, tests).
   */
  lastLoad: LoadStats;
};

type LoadStats = { fromFile: number; fromDb: number; whole: boolean };

type PerDb = { arena: Arena; streams: Map<string, Mirror> };

const mirrors = new WeakMap<Db, PerDb | null>();

const align16 = (n: number) => (n + 15) & ~15;

function alloc(a: Arena, bytes: number): number {
  const reuse = a.free.get(bytes)?.pop();
  if (reuse !== undefined) return reuse;
  const at = a.top;
  a.top += bytes;
  const have = a.k.memory.buffer.byteLength;
  if (a.top > have) a.k.memory.grow(Math.ceil((a.top - have) / 65536));
  return at;
}

/** Grows the arena's memory, in one step, to hold `bytes` more past its top. */
function reserve(a: Arena, bytes: number): void {
  const have = a.k.memory.buffer.byteLength;
  if (a.top + bytes > have) a.k.memory.grow(Math.ceil((a.top + bytes - have) / 65536));
}

/** The bytes of one chunk's slot in the arena (see place). */
const slotBytes = (size: number) =>
  align16(size * 4) + align16(size * 2) + align16(size * BQ_BYTES) + size * DIM;

function release(a: Arena, at: number, bytes: number): void {
  const list = a.free.get(bytes);
  if (list) list.push(at);
  else a.free.set(bytes, [at]);
}

function keyOf(m: Mirror, scope: string, model: string): number {
  const k = `${scope}\u0000${model}`;
  let id = m.keyIds.get(k);
  if (id === undefined) {
    id = m.keyList.length;
    m.keyIds.set(k, id);
    m.keyList.push({ scope, model });
  }
  return id;
}

function layoutOk(db: Db): boolean {
  const version = db.prepare("SELECT value FROM vec_items_info WHERE key = 'CREATE_VERSION'").get() as
    | { value: string }
    | undefined;
  if (version?.value !== 'v0.1.9') return false;
  const cols = (
    db.prepare("SELECT name FROM pragma_table_info('vec_items_chunks')").all() as { name: string }[]
  ).map((c) => c.name);
  return ['chunk_id', 'size', 'partition00', 'validity', 'rowids'].every((c) => cols.includes(c));
}

/** Decodes one text metadata column of a chunk; long values come from the metadata text table. */
function readTextMeta(
  db: Db,
  column: number,
  chunkId: number,
  rowids: Float64Array,
  valid: (i: number) => boolean,
) {
  const row = stmt(db, `SELECT data FROM vec_items_metadatachunks0${column} WHERE rowid = ?`).get(chunkId) as
    | { data: Buffer }
    | undefined;
  if (!row) throw new Error('missing metadata chunk');
  const out: string[] = new Array(rowids.length).fill('');
  const long: number[] = [];
  for (let i = 0; i < rowids.length; i++) {
    if (!valid(i)) continue;
    const o = i * META_SLOT;
    const len = row.data.readInt32LE(o);
    if (len <= META_PREFIX) out[i] = row.data.toString('utf8', o + 4, o + 4 + len);
    else long.push(i);
  }
  if (long.length > 0) {
    const texts = stmt(
      db,
      `SELECT rowid, data FROM vec_items_metadatatext0${column} WHERE rowid IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(long.map((i) => rowids[i]))) as { rowid: number; data: string }[];
    const byRowid = new Map(texts.map((t) => [t.rowid, t.data]));
    for (const i of long) out[i] = byRowid.get(rowids[i] ?? -1) ?? '';
  }
  return out;
}

/** A chunk's slot in the arena, its sign bits copied in; keys, scales and int8 values to fill. */
function place(a: Arena, id: number, raw: Buffer[] | null, hash: string, rowids: Float64Array): Chunk {
  const size = rowids.length;
  const keysBytes = align16(size * 4);
  const distBytes = align16(size * 2);
  const codesBytes = align16(size * BQ_BYTES);
  const bytes = slotBytes(size);
  const slot = alloc(a, bytes);
  const c: Chunk = {
    id,
    raw,
    hash,
    size,
    rowids,
    scale: new Float32Array(size),
    slot,
    bytes,
    keys: slot,
    dist: slot + keysBytes,
    codes: slot + keysBytes + distBytes,
    quant: slot + keysBytes + distBytes + codesBytes,
  };
  if (raw) new Uint8Array(a.k.memory.buffer, c.codes, size * BQ_BYTES).set(raw[2] as Buffer);
  return c;
}

/**
 * A chunk's rowids (i64 little-endian) as numbers. Read as two 32-bit halves: a BigInt per row
 * cost about 60 ms a million rows at a mirror's start, the halves under 10 (rowids stay far
 * below 2^53).
 */
const rowidsOf = (blob: Buffer) => {
  const rowids = new Float64Array(blob.length / 8);
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  for (let i = 0; i < rowids.length; i++)
    rowids[i] = view.getUint32(i * 8, true) + view.getInt32(i * 8 + 4, true) * 4294967296;
  return rowids;
};

/**
 * A chunk from the file beside the database, when the file holds this chunk as the database has
 * it now (same hash of its small blobs, same size); null otherwise.
 */
function loadCached(
  a: Arena,
  m: Mirror,
  file: MirrorFile,
  id: number,
  raw: Buffer[],
  hash: string,
): Chunk | null {
  const entry = file.chunks.get(id);
  const rowidBlob = raw[1] as Buffer;
  if (!entry || entry.hash !== hash || entry.size * 8 !== rowidBlob.length) return null;
  if ((raw[2] as Buffer).length !== entry.size * BQ_BYTES) return null;
  const c = place(a, id, raw, hash, rowidsOf(rowidBlob));
  if (readFromFile(a, m, file, entry, c, false)) return c;
  release(a, c.slot, c.bytes);
  return null;
}

/**
 * Reads a placed chunk's keys, scales and int8 rows from the file (and its rowids and sign bits
 * when `whole`), the file's key numbers made this mirror's. False when they cannot be read.
 */
function readFromFile(a: Arena, m: Mirror, file: MirrorFile, entry: FileChunk, c: Chunk, whole: boolean) {
  const buffer = a.k.memory.buffer;
  const keys = new Int32Array(buffer, c.keys, c.size);
  const ok = readChunk(file, entry, {
    keys,
    scale: c.scale,
    quant: new Int8Array(buffer, c.quant, c.size * DIM),
    ...(whole ? { rowids: c.rowids, codes: new Uint8Array(buffer, c.codes, c.size * BQ_BYTES) } : {}),
  });
  if (!ok) return false;
  const ids = file.keys.map((k) => keyOf(m, String(k.scope), String(k.model)));
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as number;
    keys[i] = k < 0 ? -1 : (ids[k] as number);
  }
  return true;
}

/**
 * Every chunk of a file that mirrors the database as it is now (the generation it names is the
 * database's): rowids and sign bits from the file too, no blob read from the database. False (and
 * nothing kept) when a chunk cannot be read.
 */
function loadWhole(a: Arena, m: Mirror, file: MirrorFile): boolean {
  const chunks: Chunk[] = [];
  let need = 0;
  for (const entry of file.chunks.values()) need += slotBytes(entry.size);
  reserve(a, need);
  for (const entry of file.chunks.values()) {
    const c = place(a, entry.id, null, entry.hash, new Float64Array(entry.size));
    chunks.push(c);
    if (!readFromFile(a, m, file, entry, c, true)) {
      for (const done of chunks) release(a, done.slot, done.bytes);
      m.keyIds.clear();
      m.keyList.length = 0;
      return false;
    }
  }
  for (const c of chunks) m.chunks.set(c.id, c);
  return true;
}

function loadChunk(db: Db, a: Arena, m: Mirror, id: number, raw: Buffer[], hash: string): Chunk {
  const validity = raw[0] as Buffer;
  const base = stmt(db, 'SELECT size, rowids FROM vec_items_chunks WHERE chunk_id = ?').get(id) as
    | { size: number; rowids: Buffer }
    | undefined;
  const f32 = stmt(db, 'SELECT vectors FROM vec_items_vector_chunks00 WHERE rowid = ?').get(id) as
    | { vectors: Buffer }
    | undefined;
  if (!base || !f32) throw new Error('missing chunk');
  const size = base.size;
  if (
    base.rowids.length !== size * 8 ||
    (raw[2] as Buffer).length !== size * BQ_BYTES ||
    f32.vectors.length !== size * F32_BYTES
  ) {
    throw new Error('unexpected chunk layout');
  }
  const valid = (i: number) => ((validity[i >> 3] ?? 0) & (1 << (i & 7))) !== 0;
  const rowids = rowidsOf(base.rowids);
  const scopes = readTextMeta(db, 0, id, rowids, valid);
  const models = readTextMeta(db, 1, id, rowids, valid);

  const c = place(a, id, raw, hash, rowids);
  const buffer = a.k.memory.buffer;
  const keys = new Int32Array(buffer, c.keys, size);
  const quant = new Int8Array(buffer, c.quant, size * DIM);
  // An aligned copy of the float32 blob (the Buffer may start at any byte).
  const floats = new Float32Array(size * DIM);
  new Uint8Array(floats.buffer).set(f32.vectors);
  for (let i = 0; i < size; i++) {
    if (!valid(i)) {
      keys[i] = -1;
      continue;
    }
    keys[i] = keyOf(m, scopes[i] ?? '', models[i] ?? '');
    const o = i * DIM;
    let max = 0;
    let norm = 0;
    for (let d = 0; d < DIM; d++) {
      const x = floats[o + d]!;
      norm += x * x;
      if (Math.abs(x) > max) max = Math.abs(x);
    }
    // Cosine distance: normalise first, then quantize to int8 with one scale per row.
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    const s = max * inv > 0 ? (max * inv) / 127 : 1;
    c.scale[i] = s;
    const f = inv / s;
    for (let d = 0; d < DIM; d++) quant[o + d] = Math.round(floats[o + d]! * f);
  }
  return c;
}

/** How old a file behind the database must be before a first load writes it anew (see mirrorOf). */
const RENEW_AFTER_MS = 10 * 60_000;

/**
 * Writes the mirror to its file once a tenth of its slots (or more) were rebuilt from the database
 * since the last write: a first load, or steady indexing; a few changed chunks are not worth
 * rewriting the whole file, and the next start rebuilds just those ([R9]).
 */
function saveIfWorthIt(a: Arena, m: Mirror, generation: string | null): boolean {
  if (!m.path || m.sinceSave === 0) return false;
  let slots = 0;
  for (const c of m.chunks.values()) slots += c.size;
  if (m.sinceSave * 10 < slots) return false;
  return saveNow(a, m, generation);
}

function saveNow(a: Arena, m: Mirror, generation: string | null): boolean {
  if (!m.path) return false;
  const buffer = a.k.memory.buffer;
  const chunks = [...m.chunks.values()].map((c) => ({
    id: c.id,
    size: c.size,
    hash: c.hash,
    keys: new Int32Array(buffer, c.keys, c.size),
    scale: c.scale,
    quant: new Int8Array(buffer, c.quant, c.size * DIM),
    rowids: c.rowids,
    codes: new Uint8Array(buffer, c.codes, c.size * BQ_BYTES),
  }));
  if (!writeMirrorFile(m.path, m.keyList, chunks, generation)) return false;
  m.sinceSave = 0;
  return true;
}

/** The mirror of one stream (partition), brought up to date; null when the layout is unknown. */
function mirrorOf(db: Db, stream: string): { arena: Arena; m: Mirror } | null {
  let perDb = mirrors.get(db);
  if (perDb === null) return null;
  if (perDb === undefined) {
    perDb = null;
    try {
      const k = layoutOk(db) ? kernels() : null;
      if (k)
        perDb = { arena: { k, top: 16, free: new Map(), scratch: 0, scratchBytes: 0 }, streams: new Map() };
    } catch {
      perDb = null;
    }
    mirrors.set(db, perDb);
    if (perDb === null) return null;
  }
  const arena = perDb.arena;
  let m = perDb.streams.get(stream);
  let file: MirrorFile | null = null;
  if (!m) {
    const path = db.memory || db.name === '' ? null : mirrorPath(db.name, stream);
    m = {
      stamp: '',
      chunks: new Map(),
      keyIds: new Map(),
      keyList: [],
      path,
      sinceSave: 0,
      lastLoad: { fromFile: 0, fromDb: 0, whole: false },
    };
    perDb.streams.set(stream, m);
    file = path ? openMirrorFile(path) : null;
  }
  try {
    const stamp = vectorGeneration(db);
    if (stamp === m.stamp) return { arena, m };
    if (file && m.chunks.size === 0 && isRandomGeneration(stamp) && file.generation === stamp) {
      if (loadWhole(arena, m, file)) {
        m.stamp = stamp;
        m.lastLoad = { fromFile: file.chunks.size, fromDb: 0, whole: true };
        return { arena, m };
      }
    }
    // Something was written (by anyone): compare every chunk's small blobs with the cached copies
    // and rebuild the chunks that differ. vec0 reuses freed slots, so the validity bitmap alone
    // does not tell; rowids, sign bits and metadata together do (a re-embedding that keeps every
    // sign bit, the same rowid, scope and model is the one change not seen: the int8 copy of that
    // row stays slightly stale until its chunk changes again).
    const current = stmt(
      db,
      `SELECT c.chunk_id AS id, c.validity AS validity, c.rowids AS rowids, b.vectors AS bq, s.data AS scope,
              m.data AS model
       FROM vec_items_chunks c
       JOIN vec_items_vector_chunks01 b ON b.rowid = c.chunk_id
       JOIN vec_items_metadatachunks00 s ON s.rowid = c.chunk_id
       JOIN vec_items_metadatachunks01 m ON m.rowid = c.chunk_id
       WHERE c.partition00 = ?`,
    ).all(stream) as {
      id: number;
      validity: Buffer;
      rowids: Buffer;
      bq: Buffer;
      scope: Buffer;
      model: Buffer;
    }[];
    const seen = new Set<number>();
    const load = { fromFile: 0, fromDb: 0, whole: false };
    // Grow the arena once for every chunk to load, not a chunk at a time (each grow of a
    // WebAssembly memory may copy all of it: quadratic over a first load of 1M rows).
    let need = 0;
    for (const c of current) if (!m.chunks.has(c.id)) need += slotBytes(c.rowids.length / 8);
    reserve(arena, need);
    for (const c of current) {
      seen.add(c.id);
      const raw = [c.validity, c.rowids, c.bq, c.scope, c.model];
      const have = m.chunks.get(c.id);
      // A chunk taken from a whole file is known by its hash until its blobs are first read.
      const hash = have?.raw ? null : chunkHash(raw);
      if (have) {
        if (have.raw ? have.raw.every((buf, i) => buf.equals(raw[i] as Buffer)) : have.hash === hash) {
          have.raw = raw;
          continue;
        }
        release(arena, have.slot, have.bytes);
      }
      const sum = hash ?? chunkHash(raw);
      const cached = file ? loadCached(arena, m, file, c.id, raw, sum) : null;
      const chunk = cached ?? loadChunk(db, arena, m, c.id, raw, sum);
      if (cached) load.fromFile++;
      else {
        load.fromDb++;
        m.sinceSave += chunk.size;
      }
      m.chunks.set(c.id, chunk);
    }
    for (const [id, c] of [...m.chunks]) {
      if (seen.has(id)) continue;
      release(arena, c.slot, c.bytes);
      m.chunks.delete(id);
    }
    m.stamp = stamp;
    m.lastLoad = load;
    // The file names the generation only when nothing was written while the blobs were read.
    const whole = isRandomGeneration(stamp) && vectorGeneration(db) === stamp;
    const saved = saveIfWorthIt(arena, m, whole ? stamp : null);
    // A first load from a file that did not name this state (an older version of the file, or
    // writes since it was saved) writes it anew once the answer is out, so the next process takes
    // it whole: a file of version 1 at once, a newer one when it is RENEW_AFTER_MS old, so that
    // agents' MCP processes (one a call, the vectors changing between them) do not each rewrite a
    // file of some hundred MB on closing. A process that exits first leaves the file as it was.
    if (file && whole && !saved && (file.version === 1 || Date.now() - file.writtenMs > RENEW_AFTER_MS)) {
      const mirror = m;
      setImmediate(() => {
        if (mirror.stamp === stamp) saveNow(arena, mirror, stamp);
      });
    }
    return { arena, m };
  } catch {
    mirrors.set(db, null);
    return null;
  } finally {
    if (file) closeMirrorFile(file);
  }
}

/**
 * Up to `limit` item rowids of `stream`, nearest first by cosine distance to `vector`, among rows
 * of `model` in one of `scopes`. Returns null when the mirror is unavailable (use vec0 instead).
 */
export function mirrorKnn(
  db: Db,
  vector: Float32Array,
  model: string,
  stream: string,
  scopes: readonly string[],
  limit: number,
): number[] | null {
  if (vector.length !== DIM) return null;
  const got = mirrorOf(db, stream);
  if (!got) return null;
  const { arena, m } = got;
  const keyCount = m.keyList.length;
  const allowedList = m.keyList.map((k) => (k.model === model && scopes.includes(k.scope) ? 1 : 0));
  if (!allowedList.includes(1)) return [];
  let norm = 0;
  let max = 0;
  for (let d = 0; d < DIM; d++) {
    const x = vector[d] ?? 0;
    norm += x * x;
    if (Math.abs(x) > max) max = Math.abs(x);
  }
  if (norm === 0) return null;

  // Scratch space: query sign bits, query int8 values (as i16), the mask of its largest
  // dimensions, histogram, allowed keys, and the rescoring output of one chunk.
  let maxSize = 0;
  for (const c of m.chunks.values()) if (c.size > maxSize) maxSize = c.size;
  const Q_CODES = 0;
  const Q_INT = 64;
  const MASK = Q_INT + DIM * 2;
  const HIST = MASK + 64;
  const OUT_IDX = HIST + align16((FILTERED + 1) * 4);
  const OUT_DOT = OUT_IDX + align16(maxSize * 4);
  const ALLOWED = OUT_DOT + align16(maxSize * 4);
  const need = ALLOWED + align16(keyCount);
  if (arena.scratchBytes < need) {
    if (arena.scratchBytes > 0) release(arena, arena.scratch, arena.scratchBytes);
    arena.scratchBytes = align16(need * 2);
    arena.scratch = alloc(arena, arena.scratchBytes);
  }
  const at = arena.scratch;
  const buffer = arena.k.memory.buffer;
  const qCode = new Uint8Array(buffer, at + Q_CODES, BQ_BYTES);
  const qInt = new Int16Array(buffer, at + Q_INT, DIM);
  const mask = new Uint8Array(buffer, at + MASK, BQ_BYTES);
  const hist = new Uint32Array(buffer, at + HIST, FILTERED + 1);
  new Uint8Array(buffer, at + ALLOWED, keyCount).set(allowedList);

  // The query: sign bits (as vec_quantize_binary: bit set when x > 0) and a normalised int8 copy.
  qCode.fill(0);
  const qScale = max / Math.sqrt(norm) / 127;
  for (let d = 0; d < DIM; d++) {
    const x = vector[d] ?? 0;
    if (x > 0) qCode[d >> 3]! |= 1 << (d & 7);
    qInt[d] = Math.round(x / Math.sqrt(norm) / qScale);
  }
  mask.fill(0);
  for (const d of largestDims(vector, TOP_DIMS)) mask[d >> 3]! |= 1 << (d & 7);

  // Pass 1: the weighted Hamming distance of every allowed row (FILTERED marks a filtered-out
  // slot), and a histogram of those distances.
  hist.fill(0);
  const chunks = [...m.chunks.values()];
  for (const c of chunks)
    arena.k.hamming(c.codes, c.keys, c.size, at + Q_CODES, at + MASK, at + ALLOWED, c.dist, at + HIST);
  let n = 0;
  for (let d = 0; d < FILTERED; d++) n += hist[d]!;
  if (n === 0) return [];

  // The distance cut-off that keeps about `keep` candidates.
  const keep = rescoreCount(n, limit);
  let cut = 0;
  let count = 0;
  while (cut < FILTERED && count + hist[cut]! <= keep) count += hist[cut++]!;
  // Take the whole boundary bucket rather than fall short; never the filtered-out mark.
  if (count < limit) cut = Math.min(cut + 1, FILTERED);

  // Pass 2: int8 dot products for the candidates; keep the best `limit` in a small sorted list.
  const outIdx = new Int32Array(buffer, at + OUT_IDX, maxSize);
  const outDot = new Int32Array(buffer, at + OUT_DOT, maxSize);
  const bestScore = new Float64Array(limit + 1);
  const bestRowid = new Float64Array(limit + 1);
  let size = 0;
  let floor = Number.NEGATIVE_INFINITY;
  for (const c of chunks) {
    const found = arena.k.rescore(c.quant, c.dist, c.size, cut, at + Q_INT, at + OUT_IDX, at + OUT_DOT);
    const scale = c.scale;
    for (let j = 0; j < found; j++) {
      const i = outIdx[j]!;
      const score = outDot[j]! * scale[i]!;
      if (size >= limit && score <= floor) continue;
      let p = size < limit ? size++ : limit - 1;
      while (p > 0 && bestScore[p - 1]! < score) {
        bestScore[p] = bestScore[p - 1]!;
        bestRowid[p] = bestRowid[p - 1]!;
        p--;
      }
      bestScore[p] = score;
      bestRowid[p] = c.rowids[i]!;
      if (size >= limit) floor = bestScore[limit - 1]!;
    }
  }
  return Array.from(bestRowid.subarray(0, size));
}

/** The `count` dimensions where the vector is largest in magnitude. */
function largestDims(vector: Float32Array, count: number): number[] {
  const dims = Array.from({ length: vector.length }, (_, d) => d);
  dims.sort((a, b) => Math.abs(vector[b] ?? 0) - Math.abs(vector[a] ?? 0) || a - b);
  return dims.slice(0, count);
}

/** How the last load of a stream's mirror went: chunks taken from the file and rebuilt from the database. */
export function mirrorLoadStats(db: Db, stream: string): LoadStats | null {
  return mirrors.get(db)?.streams.get(stream)?.lastLoad ?? null;
}

/** Drops the in-memory mirror of a database (tests, benchmarks, after closing it). */
export function forgetMirror(db: Db): void {
  mirrors.delete(db);
}
