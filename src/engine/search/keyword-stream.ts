/**
 * The fast keyword streams. What makes an FTS5 OR-query slow is not finding the matches (a few ms
 * at 100k rows) but scoring them: bm25() runs for every row that matches ANY term, and the join to
 * `items` for the stream / scope filter runs for every one of those rows too. A term that occurs
 * in most rows brings in most of the table while adding almost nothing to BM25 (its IDF is near
 * zero). So:
 *
 *  - each term's document frequency is counted once by FTS5 (above the postings budget,
 *    estimated from its first and last rows: countRows) and cached per connection; terms that
 *    match nothing are dropped, and so are terms in more than MAX_DF_SHARE of the rows, but never
 *    all of them (the rarest one always stays). A write to the full-text index forgets the cached
 *    misses at once ([R1] in docs/RETRIEVAL.md): a miss cached before a write must not drop the
 *    word that write brought (see ftsGeneration); the counts of words found stay for DF_KEEP_MS;
 *  - a dropped term still counts in the BM25 of the rows the kept terms found (a second query,
 *    `(kept) AND (dropped)`, scores the rows holding both by every term), so those rows rank as
 *    exact BM25 ranks them; only rows holding none of the kept terms are not seen. Terms in more
 *    than half the rows are left out of that too: FTS5 clamps their IDF to 1e-6;
 *  - one query scores the matches once for all three streams (file, section, note); each row's
 *    stream comes from its storage kind, cached by rowid, and only the best rows of each stream
 *    are read back, in order of score, for the scope / indexed / retired filter the caller asked
 *    for (the narrow covering index items_search, migration 0003), until the stream has its
 *    `limit` rows: not every match is joined to its row. The three stream calls of one search
 *    share that result.
 */
import { type Db, stmt } from '../db/driver.ts';
import { ftsQuery } from './keyword.ts';

/** Terms found in more than this share of the rows are dropped (unless they are all that is left). */
const MAX_DF_SHARE = 0.2;
/**
 * The most postings (sum of the kept terms' document frequencies) one search scores: scoring is
 * what costs (~1 us a matching row), and the terms dropped by this budget are the commonest ones,
 * with the lowest IDF. The budget is POSTINGS_SHARE of the rows, within [MIN_POSTINGS,
 * MAX_POSTINGS]: the keyword streams run while the vector worker scans its mirror (~0.04-0.05 us
 * a row of the index), so 4 % of the rows keeps their scoring within the time a search waits for
 * the vectors anyway; a smaller budget in a bigger index would cost quality and save no time.
 * Measured on the speed bench (README): at 100k sections 4,000 instead of 12,000 took the whole
 * search's p95 from 19 to 11 ms, with the keyword overlap with exact BM25 at 0.998 (1.000); at
 * 300k, 4,000 instead of 12,000 cost overlap (0.987 against 1.000) and the whole search did not
 * get faster, the vector streams taking 15 ms; at 1M, 4,000 gave 0.948 against 0.997, no faster.
 * Below about 3,000 the keyword tail does not get shorter, so a smaller index keeps 4,000.
 */
const POSTINGS_SHARE = 0.04;
const MIN_POSTINGS = 4_000;
const MAX_POSTINGS = 12_000;

export const postingsBudget = (rows: number): number =>
  Math.min(MAX_POSTINGS, Math.max(MIN_POSTINGS, Math.round(rows * POSTINGS_SHARE)));

/** Below this many rows, no term is dropped for being common (scoring all of them is cheap). */
const SHAPE_MIN_ROWS = 20_000;
const DF_CACHE_MAX = 50_000;
/**
 * How long a word's count outlives writes to the full-text index. Counting a word reads up to
 * twice the postings budget of its rows (countRows: ~0.3-0.6 ms a common word at 100k sections),
 * and a host that indexes while agents search writes between most searches: recounting every
 * word after every write would cost each search that. A count only decides which words are sent to FTS5 (their scores are always FTS5's own),
 * and some seconds of writes move a word's count by little; a word that matched nothing is
 * counted again after any write.
 */
const DF_KEEP_MS = 60_000;

type Counted = { n: number; at: number };
type DfCache = { generation: Buffer | null; rows: number; df: Map<string, Counted> };
const dfCaches = new WeakMap<Db, DfCache>();

/** The table's largest rowid: the bound of the kinds learnt, and the row count's stand-in (one index seek). */
function largestRowid(db: Db): number {
  const row = stmt(db, 'SELECT max(rowid) AS n FROM items').get() as { n: number | null };
  return row.n ?? 0;
}

/**
 * Which state of the full-text index this connection sees: FTS5's structure record (row 10 of
 * its `_data` table: the segments and a write counter that only grows). Every committed write to
 * items_fts, an insert, a 'delete' or a merge, by this connection or by any other process,
 * rewrites it, and nothing else does. `PRAGMA data_version` (others' commits) with
 * `total_changes()` (this connection's) would be as correct but move on every search, since each
 * search writes its telemetry row, so the counts would never be reused. One primary-key read of
 * some tens of bytes: ~6 us a search at 100k sections, where the keyword streams take 8-12 ms.
 * Null when it cannot be read (then nothing is cached).
 */
export function ftsGeneration(db: Db): Buffer | null {
  try {
    const row = stmt(db, 'SELECT block FROM items_fts_data WHERE id = 10').get() as
      | { block: Buffer }
      | undefined;
    return row?.block ?? null;
  } catch {
    return null;
  }
}

function dfCache(db: Db): DfCache {
  const generation = ftsGeneration(db);
  let cache = dfCaches.get(db);
  if (!cache || !generation || !cache.generation || cache.df.size > DF_CACHE_MAX) {
    cache = { generation, rows: largestRowid(db), df: new Map() };
    dfCaches.set(db, cache);
  } else if (!cache.generation.equals(generation)) {
    // Written since (by anyone): a cached miss may match now, and old counts may be off by more
    // than a little; the rest stay.
    const now = Date.now();
    for (const [term, c] of cache.df) if (c.n === 0 || now - c.at > DF_KEEP_MS) cache.df.delete(term);
    cache.generation = generation;
    cache.rows = largestRowid(db);
  }
  return cache;
}

/** Tests: the count this connection holds for a term, if any. */
export function cachedCount(db: Db, term: string): number | undefined {
  return dfCaches.get(db)?.df.get(term)?.n;
}

/**
 * How many rows a term matches, as far as shapeTerms needs to know: exactly up to the postings
 * budget, and above it an estimate. A term over the budget is never kept but as the rarest of
 * common terms, and it is rescored while it is in at most half the rows; counting such a term
 * walked its whole doclist (~4 ms for a word in most of 100k rows, ~13 ms cold) where reading
 * `cap` of its rows takes ~0.3 ms. The estimate: the rows from its first to its last occurrence
 * (its first and its last `cap` rows, read in rowid order) times the lower of the two ends'
 * densities. A word that comes in bursts is taken as rarer than it is, which costs a rescore
 * (time), never a word dropped that weighs.
 */
function countRows(db: Db, term: string, cap: number): number {
  const probe = (order: 'ASC' | 'DESC') =>
    stmt(
      db,
      `SELECT count(*) AS n, min(rowid) AS lo, max(rowid) AS hi FROM
       (SELECT rowid FROM items_fts WHERE items_fts MATCH ? ORDER BY rowid ${order} LIMIT ?)`,
    ).get(ftsQuery([term]), cap) as { n: number; lo: number; hi: number };
  const first = probe('ASC');
  if (first.n < cap) return first.n;
  const last = probe('DESC');
  const density = cap / Math.max(first.hi - first.lo + 1, last.hi - last.lo + 1);
  return Math.max(cap, Math.round(density * (last.hi - first.lo + 1)));
}

/**
 * Document frequency of each term, counted by FTS5 itself (so the porter stemming matches the
 * index exactly; above the postings budget estimated, countRows), cached per connection.
 */
function documentFrequencies(
  db: Db,
  terms: readonly string[],
): { df: Map<string, number>; rows: number } | null {
  try {
    const cache = dfCache(db);
    const cap = postingsBudget(cache.rows) + 1;
    const df = new Map<string, number>();
    for (const t of terms) {
      let c = cache.df.get(t);
      if (!c) {
        c = { n: countRows(db, t, cap), at: Date.now() };
        cache.df.set(t, c);
      }
      df.set(t, c.n);
    }
    return { df, rows: cache.rows };
  } catch {
    return null;
  }
}

/**
 * Terms dropped for the budget that still weigh in BM25 are added back for the rows the kept terms
 * found (see keywordLists); a term in more than this share of the rows weighs nothing but a
 * tie-break (FTS5 clamps its IDF, ln((N - n + 0.5) / (n + 0.5)), to 1e-6) and is left out.
 */
const RESCORE_DF_SHARE = 0.5;

/**
 * The terms worth sending to FTS5 (`kept`: matching something, and not in most rows), and the
 * dropped ones that still count for the rows those find (`rescore`).
 */
function shapeTerms(db: Db, terms: readonly string[]): { kept: string[]; rescore: string[] } {
  if (terms.length <= 1) return { kept: [...terms], rescore: [] };
  const info = documentFrequencies(db, terms);
  if (!info) return { kept: [...terms], rescore: [] };
  const scored = terms.map((t) => ({ t, df: info.df.get(t) ?? 0 })).filter((x) => x.df > 0);
  if (scored.length === 0) return { kept: [], rescore: [] };
  // In a small workspace every term is cheap, and a word in most rows may be its very topic
  // ("trace" in a paper about tracing): shape only when the index is big enough to need it.
  if (info.rows < SHAPE_MIN_ROWS) return { kept: scored.map((x) => x.t), rescore: [] };
  const limit = Math.max(1, info.rows * MAX_DF_SHARE);
  const budget = postingsBudget(info.rows);
  // Rarest first: the rarest term always stays; the others while they are not in most rows and
  // the rows to score stay within the budget.
  scored.sort((a, b) => a.df - b.df);
  const keep = new Set<string>();
  let postings = 0;
  for (const x of scored) {
    if (keep.size > 0 && (x.df > limit || postings + x.df > budget)) break;
    keep.add(x.t);
    postings += x.df;
  }
  const rescore = new Set(
    scored.filter((x) => !keep.has(x.t) && x.df <= info.rows * RESCORE_DF_SHARE).map((x) => x.t),
  );
  return { kept: terms.filter((t) => keep.has(t)), rescore: terms.filter((t) => rescore.has(t)) };
}

export type StreamName = 'file' | 'section' | 'note';

/**
 * The rows the kept terms match, scored by BM25 over every term that weighs, as [rowid, score]: a
 * row that also holds dropped terms matches `(kept) AND (dropped)`, whose BM25 sums both (each
 * term's IDF is its own, over the whole index), so its score is the lower (better) of the two
 * queries. The rows scored stay the kept terms' (within the postings budget); the dropped terms cost a
 * walk of their postings for their IDF and for the AND, no scoring of their other rows.
 */
function scored(db: Db, kept: readonly string[], rescore: readonly string[]): [number, number][] {
  const one = stmt(
    db,
    'SELECT rowid, bm25(items_fts, 2.0, 1.0) AS score FROM items_fts WHERE items_fts MATCH ?',
  ).raw();
  const rows = one.all(ftsQuery(kept)) as [number, number][];
  if (rescore.length === 0) return rows;
  // The rows holding a dropped term too are among `rows`: they take the better of their scores.
  const both = new Map(one.all(`(${ftsQuery(kept)}) AND (${ftsQuery(rescore)})`) as [number, number][]);
  if (both.size === 0) return rows;
  for (const row of rows) {
    const other = both.get(row[0]);
    if (other !== undefined && other < row[1]) row[1] = other;
  }
  return rows;
}

/** A row's stream by its storage kind; OTHER: in none (an agent record's row, a row gone). */
const UNKNOWN = 0;
const OTHER = 4;
const STREAM_CODES: readonly StreamName[] = ['file', 'section', 'note'];
const codeOf = (kind: string | undefined): number =>
  kind === 'file' ? 1 : kind === 'section' ? 2 : kind === 'note' || kind === 'entity' ? 3 : OTHER;

/**
 * Each row's stream, by rowid. A row's storage kind never changes, so what is cached stays true
 * but for a rowid SQLite gave again after the last row was deleted; whatever is cached, the rows a
 * stream keeps are read again from the database before they count (rankByStream), so a stale
 * entry can only cost a search its shortcut.
 *
 * Most rows are sections, so a connection learns every row's kind at once from the others: the
 * rowids of the rows that are not sections, read by their kind's index (items_kind_scope), and
 * every other rowid up to the table's largest is a section's. Rows written later take larger
 * rowids and are learnt a range at a time, from the narrow index by rowid, when a search first
 * meets one. Measured at 1M sections (70,000 other rows): the first search of a fresh process with
 * the page cache dropped spent 568 ms learning 1,175 rows' kinds a block of 1,024 rowids at a
 * time (each block some index pages scattered through the 4 GB file); reading the 70,000 others
 * takes about 40 ms cold, and about 3 ms at 100k sections.
 */
type KindCache = { codes: Uint8Array; known: number };
const kindCaches = new WeakMap<Db, KindCache>();
const SECTION = 2;

/** Rowids above `from` up to `to` are learnt: sections unless `others` names them. */
function learn(codes: Uint8Array, from: number, to: number, others: [number, string][]): void {
  codes.fill(SECTION, from + 1, to + 1);
  for (const [rowid, kind] of others) if (rowid > from && rowid <= to) codes[rowid] = codeOf(kind);
}

function kindCache(db: Db, top: number): KindCache {
  let cache = kindCaches.get(db);
  if (!cache) {
    const last = largestRowid(db);
    // Read after the largest rowid: a row written in between is above `last` and left unknown.
    const others = stmt(
      db,
      `SELECT rowid, storage_kind FROM items WHERE storage_kind < 'section'
       UNION ALL SELECT rowid, storage_kind FROM items WHERE storage_kind > 'section'`,
    )
      .raw()
      .all() as [number, string][];
    cache = { codes: new Uint8Array(Math.ceil((last + 1) * 1.25) + 1024), known: 0 };
    learn(cache.codes, 0, last, others);
    cache.known = last;
    kindCaches.set(db, cache);
  }
  if (top > cache.known) {
    const last = largestRowid(db);
    if (last > cache.known) {
      if (cache.codes.length <= last) {
        const codes = new Uint8Array(Math.ceil((last + 1) * 1.25));
        codes.set(cache.codes);
        cache.codes = codes;
      }
      const others = stmt(
        db,
        `SELECT rowid, storage_kind FROM items INDEXED BY items_search
         WHERE rowid > ? AND rowid <= ? AND storage_kind <> 'section'`,
      )
        .raw()
        .all(cache.known, last) as [number, string][];
      learn(cache.codes, cache.known, last, others);
      cache.known = last;
    }
  }
  return cache;
}

function kindCodes(db: Db, rowids: readonly number[]): Uint8Array {
  let top = 0;
  for (const r of rowids) if (r > top) top = r;
  const { codes } = kindCache(db, top);
  const read = stmt(
    db,
    'SELECT rowid, storage_kind FROM items INDEXED BY items_search WHERE rowid IN (SELECT value FROM json_each(?))',
  ).raw();
  // Rows found stale (rankByStream), and rows past the table's end (gone before they were read).
  const unknown = rowids.filter((r) => r >= codes.length || codes[r] === UNKNOWN);
  for (let i = 0; i < unknown.length; i += VERIFY_BATCH) {
    const batch = unknown.slice(i, i + VERIFY_BATCH);
    for (const r of batch) if (r < codes.length) codes[r] = OTHER; // a row not found is in no stream
    for (const [rowid, kind] of read.all(JSON.stringify(batch)) as [number, string][])
      if (rowid < codes.length) codes[rowid] = codeOf(kind);
  }
  return codes;
}

/** How many rowids one read of the database checks at a time. */
const VERIFY_BATCH = 500;

const byScore = (a: [number, number], b: [number, number]) => a[1] - b[1] || a[0] - b[0];

/**
 * A stream's candidates in order of score (then rowid), in batches to read: first those within
 * the best 2 x `limit` scores (ties included), found without sorting them all (most of a common
 * term's thousands of rows are never needed), then, if the scopes hid too many of those, the rest.
 */
function* bestFirst(candidates: [number, number][], limit: number): Generator<number[]> {
  const want = 2 * limit;
  let first = candidates;
  let rest: [number, number][] = [];
  if (candidates.length > 2 * want) {
    const scores = Float64Array.from(candidates, (c) => c[1]).sort();
    const threshold = scores[want - 1] as number;
    first = candidates.filter((c) => c[1] <= threshold);
    rest = candidates.filter((c) => c[1] > threshold);
  }
  for (const part of [first, rest]) {
    part.sort(byScore);
    for (let at = 0; at < part.length; at += VERIFY_BATCH) {
      yield part.slice(at, at + VERIFY_BATCH).map((c) => c[0]);
    }
  }
}

/**
 * The best `limit` rows of each stream among the scored ones that the scopes see, live and
 * indexed: each stream's candidates in order of score (then rowid), read from the database in
 * that order (a narrow index, by rowid) until the stream has its rows. Only the few rows a stream
 * keeps are read, not every row the terms match: at 100k sections the join of every match to its
 * row cost twice what FTS5's scoring did. A candidate whose row turns out to be of another kind
 * than cached (its rowid given again) is re-read into its own stream by a second pass.
 */
function rankByStream(
  db: Db,
  hits: readonly [number, number][],
  scopes: readonly string[],
  limit: number,
): Record<StreamName, number[]> {
  const codes = kindCodes(
    db,
    hits.map((h) => h[0]),
  );
  const lists: Record<StreamName, number[]> = { file: [], section: [], note: [] };
  const visible = stmt(
    db,
    `SELECT rowid, storage_kind FROM items INDEXED BY items_search
     WHERE rowid IN (SELECT value FROM json_each(?)) AND scope IN (SELECT value FROM json_each(?))
       AND retired_at IS NULL AND indexed = 1`,
  ).raw();
  const scopeJson = JSON.stringify(scopes);
  const buckets: [number, number][][] = [[], [], []];
  for (const h of hits) buckets[(codes[h[0]] as number) - 1]?.push(h);
  let stale = false;
  STREAM_CODES.forEach((stream, i) => {
    const code = i + 1;
    const out = lists[stream];
    for (const batch of bestFirst(buckets[i] as [number, number][], limit)) {
      const live = new Map<number, string>(
        visible.all(JSON.stringify(batch), scopeJson) as [number, string][],
      );
      for (const rowid of batch) {
        const kind = live.get(rowid);
        if (kind === undefined) continue;
        if (codeOf(kind) !== code) {
          codes[rowid] = UNKNOWN;
          stale = true;
          continue;
        }
        out.push(rowid);
        if (out.length >= limit) return;
      }
    }
  });
  return stale ? rankByStream(db, hits, scopes, limit) : lists;
}
type Shared = { key: string; version: string; lists: Record<StreamName, number[]> };
const shared = new WeakMap<Db, Shared>();

function dbVersion(db: Db): string {
  const changes = (stmt(db, 'SELECT total_changes() AS n').get() as { n: number }).n;
  const version = db.pragma('data_version', { simple: true }) as number;
  return `${changes}:${version}`;
}

/**
 * The best `limit` rows of each stream for these terms that the scopes see, indexed and not
 * retired, ranked by BM25 (label weight 2, body 1). Repeated calls with the same
 * terms and scopes on an unchanged database reuse the result.
 */
export function keywordLists(
  db: Db,
  terms: readonly string[],
  scopes: readonly string[],
  limit: number,
): Record<StreamName, number[]> {
  const empty = { file: [], section: [], note: [] };
  if (terms.length === 0 || scopes.length === 0) return empty;
  const key = JSON.stringify([terms, scopes, limit]);
  const version = dbVersion(db);
  const hit = shared.get(db);
  if (hit && hit.key === key && hit.version === version) return hit.lists;
  const { kept, rescore } = shapeTerms(db, terms);
  const lists: Record<StreamName, number[]> =
    kept.length > 0 ? rankByStream(db, scored(db, kept, rescore), scopes, limit) : empty;
  shared.set(db, { key, version: dbVersion(db), lists });
  return lists;
}
