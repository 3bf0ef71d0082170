/**
 * Part 1, search speed: the whole six-stream search() of search.ts on a generated corpus, with a
 * precomputed random query vector (query embedding excluded), beside baselines measured in the
 * same run on the same data: a plain vec0 float32 KNN (no filters), a plain FTS5 OR query of the
 * same words, and a memory pass over N x 384 float32. Also checks the fast streams against exact
 * ones (recall@50).
 */

import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { vecBlob } from '#engine/read/items.ts';
import { ftsQuery, queryTerms } from '#engine/search/keyword.ts';
import { mirrorPath } from '#engine/search/mirror-file.ts';
import { keywordStream, type Stream, search, vectorStream } from '#engine/search/search.ts';
import {
  closeVectorWorker,
  setVectorWorkerMinRows,
  VECTOR_WORKER_MIN_ROWS,
} from '#engine/search/vector-client.ts';
import { forgetMirror } from '#engine/search/vector-stream.ts';
import { EMBED_DIM, STREAM_ROWS } from '#shared/constants.ts';
import { BENCH_MODEL, buildCorpus, READER_SCOPES } from './corpus.ts';
import { gaussian, type Latency, latency, randomUnitVector, rng, round, zipfSampler } from './util.ts';

export type SpeedResult = {
  sections: number;
  items: number;
  buildSeconds: number;
  queries: number;
  search: Latency;
  keywordStreams: Latency;
  vectorStreams: Latency;
  mirrorLoadMs: number;
  /** The same load from the file beside the database (the next start). */
  mirrorFileLoadMs: number;
  /**
   * A fresh engine process's first whole search (bench/engine-process.ts: vector worker start and
   * the mirror read from its file included; the database open is `fresh.openMs`).
   */
  firstSearchMs: number;
  /** That process's resident memory after its timed searches (MB): database open, mirrors loaded, no model. */
  rssMb: number;
  /** That process's open and its timed searches (the same queries as `search`). */
  fresh: { openMs: number; search: Latency };
  baselines: { vec0FloatKnn: Latency; fts5Or: Latency; memoryPassMs: number; jsDotScanMs: number };
  /** keywordAt50 counts rows tied with the exact 50th as found; keywordStrictAt50 does not. */
  recall: { vectorAt50: number; keywordAt50: number; keywordStrictAt50: number; vectorQueries: number };
};

type Query = { text: string; vector: Float32Array };

function makeQueries(vocab: readonly string[], count: number, seed: number): Query[] {
  const rand = rng(seed);
  const normal = gaussian(rand);
  const zipf = zipfSampler(vocab.length, 1.05, rand);
  return Array.from({ length: count }, () => {
    const n = 3 + Math.floor(rand() * 6);
    const words: string[] = [];
    // About a third of the words are drawn by frequency (so common words appear), the rest uniformly.
    for (let i = 0; i < n; i++)
      words.push(vocab[rand() < 0.35 ? zipf() : Math.floor(rand() * vocab.length)] ?? 'x');
    return { text: words.join(' '), vector: randomUnitVector(normal, EMBED_DIM) };
  });
}

function timeEach<T>(items: readonly T[], fn: (item: T) => unknown): Latency {
  const samples: number[] = [];
  for (const item of items) {
    const t = performance.now();
    fn(item);
    samples.push(performance.now() - t);
  }
  return latency(samples);
}

/** Reads N x 384 float32 once (a copy into a preallocated buffer): the memory-bandwidth floor. */
function memoryPass(n: number): { copyMs: number; dotMs: number } {
  const src = new Float32Array(n * EMBED_DIM);
  for (let i = 0; i < src.length; i += 97) src[i] = i % 7;
  const dst = new Float32Array(src.length);
  dst.set(src); // warm: page in both buffers
  let copyMs = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    dst.set(src);
    copyMs = Math.min(copyMs, performance.now() - t);
  }
  const q = new Float32Array(EMBED_DIM).fill(0.05);
  const out = new Float32Array(n);
  let dotMs = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 2; r++) {
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      let s = 0;
      const o = i * EMBED_DIM;
      for (let d = 0; d < EMBED_DIM; d++) s += src[o + d]! * q[d]!;
      out[i] = s;
    }
    dotMs = Math.min(dotMs, performance.now() - t);
  }
  return { copyMs: round(copyMs), dotMs: round(dotMs) };
}

type Fresh = { openMs: number; firstSearchMs: number; search: Latency; rssMb: number };

/** The same searches in a new process that only opens the database (bench/engine-process.ts). */
function freshProcess(dbPath: string, dir: string, warm: readonly Query[], timed: readonly Query[]): Fresh {
  const wire = (q: Query) => ({ text: q.text, vector: [...q.vector] });
  const file = join(dir, 'engine-process-queries.json');
  writeFileSync(file, JSON.stringify({ warm: warm.map(wire), timed: timed.map(wire) }));
  const child = spawnSync(process.execPath, ['bin/tsx.mjs', 'bench/engine-process.ts', dbPath, file], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  rmSync(file, { force: true });
  if (child.status !== 0) throw new Error(`bench/engine-process.ts failed: ${child.stderr.slice(-2000)}`);
  return JSON.parse(child.stdout.trim().split('\n').pop() ?? '') as Fresh;
}

export function runSpeed(options: {
  sections: number;
  queries: number;
  dir: string;
  log: (m: string) => void;
}): SpeedResult {
  const { sections, log } = options;
  log(`\n[speed] corpus of ${sections.toLocaleString()} sections`);
  const t0 = performance.now();
  const corpus = buildCorpus({ sections, dir: options.dir, log });
  const buildSeconds = round((performance.now() - t0) / 1000, 1);
  const db = corpus.db;
  const items = (db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n;
  const scopes = [...READER_SCOPES];
  const queries = makeQueries(corpus.vocab, options.queries, 1234);
  const warm = makeQueries(corpus.vocab, 10, 99);
  const qv = (q: Query) => ({ vector: q.vector, model: BENCH_MODEL });

  // Cold start of the vector mirror (first search after opening the database): built from the
  // database (and written beside it), then read from that file as the next start does ([R9]).
  const loadMirror = () => {
    forgetMirror(db);
    const tm = performance.now();
    for (const s of ['section', 'file', 'note'] as const) vectorStream(db, qv(warm[0]!), s, scopes);
    return round(performance.now() - tm);
  };
  for (const s of ['section', 'file', 'note']) rmSync(mirrorPath(db.name, s), { force: true });
  const mirrorLoadMs = loadMirror();
  const mirrorFileLoadMs = loadMirror();
  forgetMirror(db);
  log(`  mirror: built from the database ${mirrorLoadMs} ms, read from its file ${mirrorFileLoadMs} ms`);
  for (const q of warm) search(db, q.text, { scopes, maxK: 100, k: 10, queryVector: qv(q) });

  log('  timing search()');
  const searchLat = timeEach(queries, (q) =>
    search(db, q.text, { scopes, maxK: 100, k: 10, queryVector: qv(q) }),
  );
  // For comparison: the same searches with every stream on this thread (no vector worker).
  setVectorWorkerMinRows(Number.MAX_SAFE_INTEGER);
  const inThread = timeEach(queries, (q) =>
    search(db, `${q.text}  `, { scopes, maxK: 100, k: 10, queryVector: qv(q) }),
  );
  setVectorWorkerMinRows(VECTOR_WORKER_MIN_ROWS);
  log(`  search() with every stream in-thread: p50 ${inThread.p50} ms, p95 ${inThread.p95} ms`);
  const streams: Stream[] = ['file', 'section', 'note'];
  // Keyword streams of one search share one query; a new query text per timing defeats that cache.
  const keywordLat = timeEach(queries, (q) => {
    for (const s of streams) keywordStream(db, `${q.text} `, s, scopes);
  });
  const vectorLat = timeEach(queries, (q) => {
    for (const s of streams) vectorStream(db, qv(q), s, scopes);
  });

  const fresh = freshProcess(db.name, options.dir, warm, queries);
  const { firstSearchMs, rssMb } = fresh;
  log(
    `  a fresh engine process: open ${fresh.openMs} ms, first search ${firstSearchMs} ms, search p50 ${fresh.search.p50} / p95 ${fresh.search.p95} ms, resident memory ${rssMb} MB`,
  );
  log('  timing baselines');
  const plainVec = db.prepare(
    `SELECT item_rowid FROM vec_items WHERE embedding MATCH ? AND k = ${STREAM_ROWS}`,
  );
  const vec0FloatKnn = timeEach(queries.slice(0, 50), (q) => plainVec.all(vecBlob(q.vector)));
  const plainFts = db.prepare(
    `SELECT rowid FROM items_fts WHERE items_fts MATCH ? ORDER BY rank LIMIT ${STREAM_ROWS}`,
  );
  const fts5Or = timeEach(queries, (q) => {
    const terms = queryTerms(q.text);
    if (terms.length > 0) plainFts.all(ftsQuery(terms));
  });
  const mem = memoryPass(sections);

  log('  checking recall against exact streams');
  const exactVec = db.prepare(
    `SELECT item_rowid AS rowid FROM vec_items WHERE embedding MATCH ? AND k = ${STREAM_ROWS} AND stream = ?
       AND model = ? AND scope IN (SELECT value FROM json_each(?)) ORDER BY distance`,
  );
  const exactKw = db.prepare(
    `SELECT i.rowid AS rowid, bm25(items_fts, 2.0, 1.0) AS score FROM items_fts JOIN items i ON i.rowid = items_fts.rowid
     WHERE items_fts MATCH ? AND i.storage_kind = ? AND i.scope IN (SELECT value FROM json_each(?))
       AND i.retired_at IS NULL AND i.indexed = 1
     ORDER BY bm25(items_fts, 2.0, 1.0) LIMIT ${STREAM_ROWS}`,
  );
  const overlap = (got: readonly number[], want: readonly number[]) => {
    if (want.length === 0) return 1;
    const g = new Set(got);
    return want.filter((x) => g.has(x)).length / want.length;
  };
  const sample = queries.slice(0, 40);
  let vecRecall = 0;
  let kwRecall = 0;
  let kwStrict = 0;
  // Exact BM25 of every row the query matches (a rowid-restricted bm25() is not the same number:
  // FTS5 then counts the terms' rows within the restriction).
  const allScores = db.prepare(
    'SELECT rowid, bm25(items_fts, 2.0, 1.0) AS score FROM items_fts WHERE items_fts MATCH ?',
  );
  /**
   * Overlap counting ties: a row whose exact score equals the 50th's is as good as it. The exact
   * list picks among equal scores by terms in most rows (FTS5 clamps their IDF to 1e-6), which in
   * this corpus of equal-length sections decides most places past the first few.
   */
  const tieAwareOverlap = (
    got: readonly number[],
    want: readonly { rowid: number; score: number }[],
    terms: string[],
  ) => {
    if (want.length === 0) return 1;
    const last = (want[want.length - 1] as { score: number }).score;
    const ids = new Set(want.map((r) => r.rowid));
    const missing = got.filter((r) => !ids.has(r));
    if (missing.length === 0) return overlap(got, [...ids]);
    const scores = new Map(
      (allScores.all(ftsQuery(terms)) as { rowid: number; score: number }[]).map((r) => [r.rowid, r.score]),
    );
    const good = got.filter((r) => ids.has(r) || (scores.get(r) ?? 0) <= last + 1e-4).length;
    return Math.min(good, want.length) / want.length;
  };
  for (const q of sample) {
    const want = (
      exactVec.all(vecBlob(q.vector), 'section', BENCH_MODEL, JSON.stringify(scopes)) as { rowid: number }[]
    ).map((r) => Number(r.rowid));
    vecRecall += overlap(vectorStream(db, qv(q), 'section', scopes), want);
    const terms = queryTerms(q.text);
    const gotKw = keywordStream(db, q.text, 'section', scopes);
    const wantKw = terms.length
      ? (exactKw.all(ftsQuery(terms), 'section', JSON.stringify(scopes)) as {
          rowid: number;
          score: number;
        }[])
      : [];
    kwStrict += overlap(
      gotKw,
      wantKw.map((r) => r.rowid),
    );
    kwRecall += tieAwareOverlap(gotKw, wantKw, terms);
  }
  void closeVectorWorker(db);
  db.close();
  return {
    sections,
    items,
    buildSeconds,
    queries: queries.length,
    search: searchLat,
    keywordStreams: keywordLat,
    vectorStreams: vectorLat,
    mirrorLoadMs,
    mirrorFileLoadMs,
    firstSearchMs,
    rssMb,
    fresh: { openMs: fresh.openMs, search: fresh.search },
    baselines: { vec0FloatKnn, fts5Or, memoryPassMs: mem.copyMs, jsDotScanMs: mem.dotMs },
    recall: {
      vectorAt50: round(vecRecall / sample.length, 3),
      keywordAt50: round(kwRecall / sample.length, 3),
      keywordStrictAt50: round(kwStrict / sample.length, 3),
      vectorQueries: sample.length,
    },
  };
}
