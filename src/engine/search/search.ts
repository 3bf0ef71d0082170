/**
 * One search = six streams (vector and keyword x file, section, note; entities join the notes),
 * 50 rows each, each filtered by the caller's scopes INSIDE its query, before ranking. Fused with
 * reciprocal rank fusion, then weighted by freshness. Every hit carries its citation.
 */
import {
  BODY_MAX_CHARS,
  KEYWORD_FILE_VOTE,
  RRF_K,
  SEARCH_K_DEFAULT,
  STREAM_ROWS,
} from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import type { Citation, SearchHit, SearchResult, StorageKind } from '#shared/types.ts';
import { type Db, stmt } from '../db/driver.ts';
import { type ItemRow, parseLocator, vecBlob } from '../read/items.ts';
import { distinctFileNames, fileTitle } from '../read/titles.ts';
import { canSee } from '../scope.ts';
import { repoOriginOf } from '../tree/share.ts';
import { choosePassages, foldBySource } from './fold.ts';
import { queryTerms } from './keyword.ts';
import { keywordLists } from './keyword-stream.ts';
import { freshness, fuseRanks } from './rrf.ts';
import { startVectors } from './vector-client.ts';
import { mirrorKnn } from './vector-stream.ts';

export type Stream = 'file' | 'section' | 'note';
export const STREAMS: readonly Stream[] = ['file', 'section', 'note'];

export type SearchOptions = {
  scopes: readonly string[];
  k?: number;
  maxK: number;
  /** The query vector and the model it came from, or null when semantic search is off. */
  queryVector: { vector: Float32Array; model: string } | null;
  /** Which lists vote: both (the product), or one kind alone (evaluations). */
  mode?: SearchMode;
  now?: number;
};

export type SearchMode = 'hybrid' | 'keyword' | 'vector';

/** Ties go to the more precise citation: a section before the note, entity or whole file. */
/** Sources folded beyond k, for the copies choosePassages passes over (fold.ts). */
const FOLD_SPARE = 10;

const SPECIFICITY: Record<StorageKind, number> = { section: 0, note: 1, entity: 2, file: 3 };

export type StreamLists = { keyword: Record<Stream, number[]>; vector: Record<Stream, number[]> | null };

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export function keywordStream(db: Db, query: string, stream: Stream, scopes: readonly string[]): number[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  // One shaped FTS5 query serves all three streams of a search; see keyword-stream.ts.
  return keywordLists(db, terms, scopes, STREAM_ROWS)[stream];
}

export function vectorStream(
  db: Db,
  query: { vector: Float32Array; model: string },
  stream: Stream,
  scopes: readonly string[],
): number[] {
  // Fast path: the in-memory mirror of vec0 (binary first pass, int8 rescoring); see vector-stream.ts.
  const fast = mirrorKnn(db, query.vector, query.model, stream, scopes, STREAM_ROWS);
  if (fast) return fast;
  const sql = `SELECT item_rowid AS rowid FROM vec_items
    WHERE embedding MATCH ? AND k = ${STREAM_ROWS} AND stream = ? AND model = ?
      AND scope IN (${placeholders(scopes.length)})
    ORDER BY distance`;
  const rows = db.prepare(sql).all(vecBlob(query.vector), stream, query.model, ...scopes) as {
    rowid: number | bigint;
  }[];
  return rows.map((r) => Number(r.rowid));
}

export function runStreams(db: Db, query: string, options: SearchOptions): StreamLists {
  const mode = options.mode ?? 'hybrid';
  const wantVectors = options.queryVector !== null && mode !== 'keyword';
  // Large databases: the vector streams run on the vector worker meanwhile (vector-client.ts).
  const pending =
    wantVectors && options.queryVector
      ? startVectors(db, options.queryVector, options.scopes, STREAM_ROWS)
      : null;
  const keyword = { file: [], section: [], note: [] } as Record<Stream, number[]>;
  if (mode !== 'vector') for (const s of STREAMS) keyword[s] = keywordStream(db, query, s, options.scopes);
  if (!wantVectors || !options.queryVector) return { keyword, vector: null };
  const fromWorker = pending?.collect() ?? null;
  if (fromWorker) return { keyword, vector: fromWorker };
  const vector = {} as Record<Stream, number[]>;
  for (const s of STREAMS) vector[s] = vectorStream(db, options.queryVector, s, options.scopes);
  return { keyword, vector };
}

export function search(db: Db, query: string, options: SearchOptions): SearchResult {
  const k = options.k ?? SEARCH_K_DEFAULT;
  if (!Number.isInteger(k) || k < 1 || k > options.maxK) {
    throw new AppError('validation-failed', `k must be a whole number from 1 to ${options.maxK} (got ${k}).`);
  }
  const lists = runStreams(db, query, options);
  return fuseAndLoad(db, lists, k, options, query);
}

/**
 * The fused, freshness-weighted best `k` sources of the six lists, each shown by the passage that
 * matched and cited by it; a source's other passages ride along (fold.ts).
 */
function fuseAndLoad(
  db: Db,
  lists: StreamLists,
  k: number,
  options: SearchOptions,
  query: string,
): SearchResult {
  const { keyword, vector } = lists;
  const all = [...STREAMS.map((s) => keyword[s]), ...(vector ? STREAMS.map((s) => vector[s]) : [])];
  // A keyword match of a file's row (title and opening) votes less than a section's ([R10]); the
  // lists after the keyword ones, the vector streams, vote 1.
  const weights = STREAMS.map((s) => (s === 'file' ? KEYWORD_FILE_VOTE : 1));
  const fused = fuseRanks(all, RRF_K, weights);
  const now = options.now ?? Date.now();
  // Rank on the few columns that decide it; read whole rows (bodies) for the winners only.
  const ranked = loadRanking(db, [...fused.keys()])
    .filter((r) => canSee(options.scopes, r.scope) && r.retired_at === null)
    .map((r) => ({ ...r, score: (fused.get(r.rowid) ?? 0) * freshness(r.occurred_at ?? r.origin_at, now) }))
    .sort(
      (a, b) =>
        b.score - a.score || SPECIFICITY[a.storage_kind] - SPECIFICITY[b.storage_kind] || a.rowid - b.rowid,
    );
  const chosen = choosePassages(db, foldBySource(ranked, k + FOLD_SPARE), queryTerms(query), k);
  const rows = new Map(
    loadRows(
      db,
      chosen.flatMap((c) => [c.shown, ...c.also]),
    )
      .filter((r) => canSee(options.scopes, r.scope) && r.retired_at === null)
      .map((r) => [r.rowid, r]),
  );
  const files = loadFiles(db, [...rows.values()]);
  const hits = chosen.flatMap(({ shown, also, more, score }) => {
    const row = rows.get(shown);
    if (!row) return [];
    const passages = also.flatMap((rowid) => {
      const r = rows.get(rowid);
      return r
        ? [
            {
              id: r.id,
              label: r.label,
              citation: citationOf(r, r.file_id ? files.get(r.file_id) : undefined),
            },
          ]
        : [];
    });
    return [{ ...toHit(row, score, files), more, also: passages }];
  });
  for (const r of rows.values()) if (r.storage_kind === 'file') files.set(r.id, r);
  return { semantic: lists.vector !== null, hits: withDistinctNames(hits, files) };
}

/**
 * Files of one answer that share a name are told apart by their folders ([R5] in
 * docs/RETRIEVAL.md): the same title in `en/templates` and `ja/テンプレート` would make two citations
 * a reader cannot tell apart.
 */
function withDistinctNames(hits: SearchHit[], files: ReadonlyMap<string, ItemRow>): SearchHit[] {
  const named = new Map<string, { name: string; path: string | null }>();
  const note = (c: Citation | null | undefined) => {
    if (!c?.fileId || named.has(c.fileId)) return;
    const file = files.get(c.fileId);
    const path = file ? (repoOriginOf(file.locator)?.path ?? file.canonical_value) : null;
    named.set(c.fileId, { name: c.fileLabel, path });
  };
  for (const h of hits) {
    note(h.citation);
    for (const a of h.also ?? []) note(a.citation);
  }
  const renamed = distinctFileNames(named);
  if (renamed.size === 0) return hits;
  const fix = (c: Citation | null): Citation | null => {
    const name = c ? renamed.get(c.fileId) : undefined;
    return c && name ? { ...c, fileLabel: name } : c;
  };
  return hits.map((h) => ({
    ...h,
    label: h.storageKind === 'file' ? (renamed.get(h.id) ?? h.label) : h.label,
    citation: fix(h.citation),
    also: h.also?.map((a) => ({ ...a, label: renamed.get(a.id) ?? a.label, citation: fix(a.citation) })),
  }));
}

type RankRow = Pick<
  ItemRow,
  'rowid' | 'id' | 'file_id' | 'scope' | 'retired_at' | 'occurred_at' | 'origin_at' | 'storage_kind'
>;

function loadRanking(db: Db, rowids: readonly number[]): RankRow[] {
  if (rowids.length === 0) return [];
  return stmt(
    db,
    `SELECT rowid, id, file_id, scope, retired_at, occurred_at, origin_at, storage_kind FROM items
     WHERE rowid IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(rowids)) as RankRow[];
}

function loadRows(db: Db, rowids: readonly number[]): ItemRow[] {
  if (rowids.length === 0) return [];
  return stmt(db, `SELECT * FROM items WHERE rowid IN (SELECT value FROM json_each(?))`).all(
    JSON.stringify(rowids),
  ) as ItemRow[];
}

function loadFiles(db: Db, rows: readonly ItemRow[]): Map<string, ItemRow> {
  const ids = [...new Set(rows.map((r) => r.file_id).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const files = stmt(db, `SELECT * FROM items WHERE id IN (SELECT value FROM json_each(?))`).all(
    JSON.stringify(ids),
  ) as ItemRow[];
  return new Map(files.map((f) => [f.id, f]));
}

export function citationOf(row: ItemRow, file: ItemRow | undefined): Citation | null {
  if (row.storage_kind === 'file') {
    const citation: Citation = {
      itemId: row.id,
      fileId: row.id,
      fileLabel: fileTitle(row),
      blob: row.blob ?? '',
      locator: null,
    };
    return withRepo(citation, row);
  }
  if (row.storage_kind !== 'section' || !row.file_id) return null;
  const locator = parseLocator(row.locator);
  const citation: Citation = {
    itemId: row.id,
    fileId: row.file_id,
    fileLabel: file ? fileTitle(file) : '',
    blob: row.blob ?? '',
    locator,
  };
  if (locator && 'lineStart' in locator) {
    citation.lineStart = locator.lineStart;
    citation.lineEnd = locator.lineEnd;
  }
  if (locator?.type === 'pdf') citation.page = locator.page;
  return file ? withRepo(citation, file) : citation;
}

/** A connected repository's document is cited with its path there and its commit (docs/TREES.md [T13]). */
function withRepo(citation: Citation, file: ItemRow): Citation {
  const origin = repoOriginOf(file.locator);
  if (origin) citation.repo = { path: origin.path, commit: origin.commit };
  return citation;
}

function toHit(row: ItemRow, score: number, files: Map<string, ItemRow>): SearchHit {
  return {
    id: row.id,
    label: row.storage_kind === 'file' ? fileTitle(row) : row.label,
    storageKind: row.storage_kind,
    kind: row.kind,
    score,
    body: row.body.slice(0, BODY_MAX_CHARS),
    scope: row.scope,
    citation: citationOf(row, row.file_id ? files.get(row.file_id) : undefined),
  };
}
