/**
 * The fast vector stream. sqlite-vec 0.1.9's own KNN (vec0 MATCH) costs ~50-90 ms per query at
 * 100k rows on this hardware: a per-chunk O(n*k) top-k selection, scalar cosine, and a point
 * lookup into the metadata text table for every row whose model id is longer than 12 bytes. Its
 * point lookups (for rescoring) cost ~150 us each. So this module keeps a per-database, in-memory
 * mirror of the vec0 chunks, read straight from vec0's shadow tables (layout of sqlite-vec v0.1.9,
 * checked at load), and searches it in two passes:
 *
 *  1. binary first pass: Hamming distance between sign bits (the `embedding_bq` column) over
 *     every row of the stream whose scope and model pass the caller's filter;
 *  2. rescoring of the best candidates with an int8 copy of the float vector (per-row scale),
 *     which ranks by cosine almost exactly (quantization error ~1e-3 of a unit dot product).
 *
 * The mirror stays in step with the database: when the vector generation counter moved since the
 * last call (a change to vec_items, by this connection or another process), each chunk's small blobs (validity,
 * rowids, sign bits, scope and model metadata: ~88 KB per 1024 rows) are compared with the cached
 * copies, and only chunks that differ are rebuilt (their float32 blob read and re-quantized).
 * Anything unexpected (another sqlite-vec layout) turns the mirror off and the caller falls back
 * to the plain vec0 query.
 */
import type { Db } from '../db/driver.ts';
import { vectorGeneration } from '../items.ts';

const DIM = 384;
const CODE_WORDS = DIM / 32; // sign bits as 32-bit words
const BQ_BYTES = DIM / 8;
const F32_BYTES = DIM * 4;
const META_SLOT = 16; // int32 length + 12-byte prefix, per text metadata value
const META_PREFIX = 12;

/** How many first-pass candidates get rescored: a share of the filtered rows, within bounds. */
export const RESCORE_SHARE = 0.25;
export const RESCORE_MIN = 5000;

type Chunk = {
  id: number;
  /** The raw blobs this chunk was built from (validity, rowids, sign bits, scope, model). */
  raw: Buffer[];
  size: number;
  rowids: Float64Array;
  /** Interned (scope, model) id per slot; -1 for an empty slot. */
  keys: Int32Array;
  codes: Uint32Array;
  quant: Int8Array;
  scale: Float32Array;
};

type Mirror = {
  /** total_changes() and data_version when last checked: unchanged means nothing was written. */
  stamp: string;
  chunks: Map<number, Chunk>;
  keyIds: Map<string, number>;
  keyList: { scope: string; model: string }[];
};

const mirrors = new WeakMap<Db, Map<string, Mirror> | null>();

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
  const row = db
    .prepare(`SELECT data FROM vec_items_metadatachunks0${column} WHERE rowid = ?`)
    .get(chunkId) as { data: Buffer } | undefined;
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
    const texts = db
      .prepare(
        `SELECT rowid, data FROM vec_items_metadatatext0${column} WHERE rowid IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(long.map((i) => rowids[i]))) as { rowid: number; data: string }[];
    const byRowid = new Map(texts.map((t) => [t.rowid, t.data]));
    for (const i of long) out[i] = byRowid.get(rowids[i] ?? -1) ?? '';
  }
  return out;
}

function loadChunk(db: Db, m: Mirror, id: number, raw: Buffer[]): Chunk {
  const validity = raw[0] as Buffer;
  const base = db.prepare('SELECT size, rowids FROM vec_items_chunks WHERE chunk_id = ?').get(id) as
    | { size: number; rowids: Buffer }
    | undefined;
  const bq = db.prepare('SELECT vectors FROM vec_items_vector_chunks01 WHERE rowid = ?').get(id) as
    | { vectors: Buffer }
    | undefined;
  const f32 = db.prepare('SELECT vectors FROM vec_items_vector_chunks00 WHERE rowid = ?').get(id) as
    | { vectors: Buffer }
    | undefined;
  if (!base || !bq || !f32) throw new Error('missing chunk');
  const size = base.size;
  if (
    base.rowids.length !== size * 8 ||
    bq.vectors.length !== size * BQ_BYTES ||
    f32.vectors.length !== size * F32_BYTES
  ) {
    throw new Error('unexpected chunk layout');
  }
  const valid = (i: number) => ((validity[i >> 3] ?? 0) & (1 << (i & 7))) !== 0;
  const rowids = new Float64Array(size);
  for (let i = 0; i < size; i++) rowids[i] = Number(base.rowids.readBigInt64LE(i * 8));
  const scopes = readTextMeta(db, 0, id, rowids, valid);
  const models = readTextMeta(db, 1, id, rowids, valid);
  const keys = new Int32Array(size).fill(-1);
  const codes = new Uint32Array(size * CODE_WORDS);
  const quant = new Int8Array(size * DIM);
  const scale = new Float32Array(size);
  const floats = new Float32Array(DIM);
  for (let i = 0; i < size; i++) {
    if (!valid(i)) continue;
    keys[i] = keyOf(m, scopes[i] ?? '', models[i] ?? '');
    for (let w = 0; w < CODE_WORDS; w++)
      codes[i * CODE_WORDS + w] = bq.vectors.readUInt32LE(i * BQ_BYTES + w * 4);
    let max = 0;
    let norm = 0;
    for (let d = 0; d < DIM; d++) {
      const x = f32.vectors.readFloatLE(i * F32_BYTES + d * 4);
      floats[d] = x;
      norm += x * x;
      if (Math.abs(x) > max) max = Math.abs(x);
    }
    // Cosine distance: normalise first, then quantize to int8 with one scale per row.
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    const s = max * inv > 0 ? (max * inv) / 127 : 1;
    scale[i] = s;
    for (let d = 0; d < DIM; d++) quant[i * DIM + d] = Math.round(((floats[d] ?? 0) * inv) / s);
  }
  return { id, raw: raw.map((b) => Buffer.from(b)), size, rowids, keys, codes, quant, scale };
}

/** The mirror of one stream (partition), brought up to date; null when the layout is unknown. */
function mirrorOf(db: Db, stream: string): Mirror | null {
  let perDb = mirrors.get(db);
  if (perDb === null) return null;
  if (perDb === undefined) {
    try {
      perDb = layoutOk(db) ? new Map() : null;
    } catch {
      perDb = null;
    }
    mirrors.set(db, perDb);
    if (perDb === null) return null;
  }
  let m = perDb.get(stream);
  if (!m) {
    m = { stamp: '', chunks: new Map(), keyIds: new Map(), keyList: [] };
    perDb.set(stream, m);
  }
  try {
    const stamp = changeStamp(db);
    if (stamp === m.stamp) return m;
    // Something was written (by anyone): compare every chunk's small blobs with the cached copies
    // and rebuild the chunks that differ. vec0 reuses freed slots, so the validity bitmap alone
    // does not tell; rowids, sign bits and metadata together do (a re-embedding that keeps every
    // sign bit, the same rowid, scope and model is the one change not seen: the int8 copy of that
    // row stays slightly stale until its chunk changes again).
    const current = db
      .prepare(
        `SELECT c.chunk_id AS id, c.validity AS validity, c.rowids AS rowids, b.vectors AS bq, s.data AS scope,
                m.data AS model
         FROM vec_items_chunks c
         JOIN vec_items_vector_chunks01 b ON b.rowid = c.chunk_id
         JOIN vec_items_metadatachunks00 s ON s.rowid = c.chunk_id
         JOIN vec_items_metadatachunks01 m ON m.rowid = c.chunk_id
         WHERE c.partition00 = ?`,
      )
      .all(stream) as {
      id: number;
      validity: Buffer;
      rowids: Buffer;
      bq: Buffer;
      scope: Buffer;
      model: Buffer;
    }[];
    const seen = new Set<number>();
    for (const c of current) {
      seen.add(c.id);
      const raw = [c.validity, c.rowids, c.bq, c.scope, c.model];
      const have = m.chunks.get(c.id);
      if (have?.raw.every((buf, i) => buf.equals(raw[i] as Buffer))) continue;
      m.chunks.set(c.id, loadChunk(db, m, c.id, raw));
    }
    for (const id of [...m.chunks.keys()]) if (!seen.has(id)) m.chunks.delete(id);
    m.stamp = stamp;
    return m;
  } catch {
    mirrors.set(db, null);
    return null;
  }
}

let candidateSlots = new Int32Array(1024);

function hamming(c: Chunk, allowed: Uint8Array, qCode: Uint32Array): Uint16Array {
  const size = c.size;
  const keys = c.keys;
  const codes = c.codes;
  const dist = new Uint16Array(size);
  const q0 = qCode[0]!;
  const q1 = qCode[1]!;
  const q2 = qCode[2]!;
  const q3 = qCode[3]!;
  const q4 = qCode[4]!;
  const q5 = qCode[5]!;
  const q6 = qCode[6]!;
  const q7 = qCode[7]!;
  const q8 = qCode[8]!;
  const q9 = qCode[9]!;
  const q10 = qCode[10]!;
  const q11 = qCode[11]!;
  for (let i = 0; i < size; i++) {
    const key = keys[i]!;
    if (key < 0 || allowed[key] !== 1) {
      dist[i] = DIM + 1;
      continue;
    }
    const o = i * CODE_WORDS;
    dist[i] =
      popcount(codes[o]! ^ q0) +
      popcount(codes[o + 1]! ^ q1) +
      popcount(codes[o + 2]! ^ q2) +
      popcount(codes[o + 3]! ^ q3) +
      popcount(codes[o + 4]! ^ q4) +
      popcount(codes[o + 5]! ^ q5) +
      popcount(codes[o + 6]! ^ q6) +
      popcount(codes[o + 7]! ^ q7) +
      popcount(codes[o + 8]! ^ q8) +
      popcount(codes[o + 9]! ^ q9) +
      popcount(codes[o + 10]! ^ q10) +
      popcount(codes[o + 11]! ^ q11);
  }
  return dist;
}

/** Int8 dot products of the chunk's rows closer than `cut`; slots go to candidateSlots. */
function rescore(c: Chunk, dist: Uint16Array, cut: number, q: Int32Array, scores: Float64Array): number {
  if (candidateSlots.length < c.size) candidateSlots = new Int32Array(c.size);
  const quant = c.quant;
  const scale = c.scale;
  let got = 0;
  for (let i = 0; i < c.size; i++) {
    if (dist[i]! >= cut) continue;
    const o = i * DIM;
    let dot = 0;
    for (let d = 0; d < DIM; d += 4) {
      dot +=
        quant[o + d]! * q[d]! +
        quant[o + d + 1]! * q[d + 1]! +
        quant[o + d + 2]! * q[d + 2]! +
        quant[o + d + 3]! * q[d + 3]!;
    }
    candidateSlots[got] = i;
    scores[got] = dot * scale[i]!;
    got++;
  }
  return got;
}

/** Moves whenever vec_items changes, in any process (see vectorGeneration in items.ts). */
function changeStamp(db: Db): string {
  return vectorGeneration(db);
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
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
  const m = mirrorOf(db, stream);
  if (!m) return null;
  const allowed = new Uint8Array(m.keyList.length);
  m.keyList.forEach((k, i) => {
    allowed[i] = k.model === model && scopes.includes(k.scope) ? 1 : 0;
  });
  if (!allowed.includes(1)) return [];

  // The query: sign bits (as vec_quantize_binary: bit set when x > 0) and a normalised int8 copy.
  const qCode = new Uint32Array(CODE_WORDS);
  let norm = 0;
  let max = 0;
  for (let d = 0; d < DIM; d++) {
    const x = vector[d] ?? 0;
    if (x > 0) qCode[d >> 5] = (qCode[d >> 5] ?? 0) | (1 << (d & 31));
    norm += x * x;
    if (Math.abs(x) > max) max = Math.abs(x);
  }
  if (norm === 0) return null;
  const qScale = max / Math.sqrt(norm) / 127;
  const qInt = new Int32Array(DIM);
  for (let d = 0; d < DIM; d++) qInt[d] = Math.round((vector[d] ?? 0) / Math.sqrt(norm) / qScale);

  // Pass 1: Hamming distance of every allowed row (DIM + 1 marks a filtered-out slot), and a
  // histogram of those distances.
  const chunks = [...m.chunks.values()];
  const dists: Uint16Array[] = [];
  const hist = new Uint32Array(DIM + 2);
  let n = 0;
  for (const c of chunks) {
    const dist = hamming(c, allowed, qCode);
    dists.push(dist);
    for (let i = 0; i < c.size; i++) hist[dist[i]!]!++;
  }
  n = hist.reduce((a, b) => a + b, 0) - hist[DIM + 1]!;
  if (n === 0) return [];

  // The Hamming cut-off that keeps about `keep` candidates.
  const keep = Math.min(n, Math.max(RESCORE_MIN, Math.ceil(n * RESCORE_SHARE), limit));
  let cut = 0;
  let count = 0;
  while (cut <= DIM && count + hist[cut]! <= keep) count += hist[cut++]!;
  // Take the whole boundary bucket rather than fall short; never the filtered-out mark (DIM + 1).
  if (count < limit) cut = Math.min(cut + 1, DIM + 1);

  // Pass 2: int8 dot products for the candidates; keep the best `limit` in a small sorted list.
  const best: { score: number; rowid: number }[] = [];
  let floor = Number.NEGATIVE_INFINITY;
  const scores = new Float64Array(Math.max(1024, ...chunks.map((c) => c.size)));
  chunks.forEach((c, ci) => {
    const dist = dists[ci]!;
    const got = rescore(c, dist, cut, qInt, scores);
    for (let j = 0; j < got; j++) {
      const i = candidateSlots[j]!;
      const score = scores[j]!;
      if (best.length >= limit && score <= floor) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.score < score) at--;
      best.splice(at, 0, { score, rowid: c.rowids[i]! });
      if (best.length > limit) best.pop();
      if (best.length >= limit) floor = best[best.length - 1]!.score;
    }
  });
  return best.map((b) => b.rowid);
}

/** Drops the in-memory mirror of a database (tests, benchmarks, after closing it). */
export function forgetMirror(db: Db): void {
  mirrors.delete(db);
}
