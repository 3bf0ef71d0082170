/**
 * INDEX ([A3] in docs/PRODUCT.md): extract and chunk from the blob, embed what changed, then ONE
 * transaction upserts the file and its sections by source key, links HAS_SECTION idempotently,
 * retires sections that no longer exist and marks the file indexed. Unchanged bytes change nothing.
 */
import { AppError } from '#shared/errors.ts';
import { needsPassword } from '#shared/password.ts';
import type { FileFormat } from '#shared/types.ts';
import type { BlobStore } from '../add/blobs.ts';
import { type FileDate, fileDate, withDatedNote } from '../add/file-date.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import type { Embedder } from '../embed/index.ts';
import { ocrOptionsFor } from '../host/settings.ts';
import { edgeId, sectionId } from '../ids.ts';
import { type Chunk, type Extraction, extractFile } from '../ingest/index.ts';
import type { PageProgress } from '../ingest/types.ts';
import { isSameBytesNote, visibleHealth } from '../knowledge/health.ts';
import { FtsBatch, getRow, type ItemRow, isSearchable, vecDelete, vecUpsert } from '../read/items.ts';
import { nameWithFolder } from '../read/titles.ts';

export type IndexContext = { db: Db; blobs: BlobStore; workspaceId: string; embedder: Embedder };
export type IndexOutcome = { id: string; label: string; sections: number };

const FILE_BODY_CHARS = 2000;

type PlannedSection = {
  id: string;
  chunkKey: string;
  key: string;
  label: string;
  body: string;
  locator: string;
  ordinal: number;
};

/**
 * A section's key is its file's key, the version of the bytes and the chunk's own key: the same
 * bytes always give the same sections (re-indexing is idempotent, on any device), and new bytes
 * give new sections that supersede the old ones, which are retired, not deleted.
 */
function sectionKey(file: ItemRow, chunk: Chunk): string {
  return `${file.source_key}@${(file.blob ?? '').slice(0, 16)}#${chunk.key}`;
}

function planSections(file: ItemRow, chunks: readonly Chunk[]): PlannedSection[] {
  return chunks.map((chunk, ordinal) => {
    const key = sectionKey(file, chunk);
    return {
      id: sectionId(file.id, key),
      chunkKey: chunk.key,
      key,
      label: chunk.label,
      body: chunk.body,
      locator: JSON.stringify(chunk.locator),
      ordinal,
    };
  });
}

function fileBody(extraction: Extraction): string {
  const parts = extraction.title ? [extraction.title] : [];
  let length = parts.join('\n').length;
  for (const chunk of extraction.chunks) {
    if (length >= FILE_BODY_CHARS) break;
    parts.push(chunk.body);
    length += chunk.body.length + 1;
  }
  return parts.join('\n').slice(0, FILE_BODY_CHARS);
}

function isUnchanged(prev: ItemRow | undefined, s: PlannedSection, file: ItemRow): boolean {
  return (
    prev !== undefined &&
    prev.retired_at === null &&
    prev.body === s.body &&
    prev.label === s.label &&
    prev.locator === s.locator &&
    prev.blob === file.blob &&
    prev.scope === file.scope &&
    prev.ordinal === s.ordinal
  );
}

/**
 * `alsoInTx` runs inside the index's own transaction (the queue marks its job done there).
 * `password` opens a password-protected file for this extraction only (unlock.ts).
 */
export async function indexFile(
  ctx: IndexContext,
  fileId: string,
  onBeat?: (progress?: PageProgress) => void,
  alsoInTx?: () => void,
  password?: string,
): Promise<IndexOutcome> {
  const file = getRow(ctx.db, fileId);
  if (file?.storage_kind !== 'file') throw new AppError('not-found', `No file with id ${fileId}.`);
  if (!file.blob || !file.format) throw new AppError('internal', `${file.label} has no stored bytes.`);
  const bytes = ctx.blobs.get(file.blob);
  let extraction: Extraction;
  try {
    // Sections are named after the document as a reader tells it apart ([R5] in docs/RETRIEVAL.md).
    extraction = await extractFile(
      bytes,
      file.format as FileFormat,
      nameWithFolder(file.label, file.canonical_value),
      {
        ...ocrOptionsFor(ctx.db, file.format),
        // A file "Read by OCR" is read so on every index of it (docs/OCR.md [O9]).
        ...(file.read_by_ocr === 1 ? { forceOcr: true } : {}),
        // Each page read is a beat of the job and a step of its progress (docs/OCR.md [O4]).
        ...(onBeat ? { onProgress: (p: PageProgress) => onBeat(p) } : {}),
        ...(password !== undefined ? { password } : {}),
      },
    );
  } catch (err) {
    return keptIfUnlocked(ctx, file, err, alsoInTx);
  }
  onBeat?.();
  const planned = planSections(file, extraction.chunks);
  const existing = new Map(
    (
      stmt(ctx.db, "SELECT * FROM items WHERE file_id = ? AND storage_kind = 'section'").all(
        file.id,
      ) as ItemRow[]
    ).map((r) => [r.id, r]),
  );
  const body = fileBody(extraction);
  const vectors = await embedChanged(ctx, file, body, planned, existing, onBeat);
  writeTx(ctx.db, () => {
    writeIndex(ctx, file, extraction, body, planned, vectors);
    alsoInTx?.();
  });
  return { id: file.id, label: file.label, sections: planned.length };
}

/**
 * docs/FORMATS.md [F14]: indexing a password-protected file again without its password keeps the
 * index it has from these same bytes (unchanged bytes change nothing); new bytes need the password.
 */
function keptIfUnlocked(ctx: IndexContext, file: ItemRow, err: unknown, alsoInTx?: () => void): IndexOutcome {
  // indexed = 1 means indexed from the bytes it has now: adding new bytes sets it to 0 (add.ts).
  if (!(err instanceof AppError) || !needsPassword(err.message) || file.indexed !== 1) throw err;
  const live = stmt(
    ctx.db,
    "SELECT COUNT(*) AS n FROM items WHERE file_id = ? AND storage_kind = 'section' AND retired_at IS NULL",
  ).get(file.id) as { n: number };
  writeTx(ctx.db, () => {
    stmt(ctx.db, 'UPDATE items SET index_error = NULL WHERE id = ? AND index_error IS NOT NULL').run(file.id);
    alsoInTx?.();
  });
  return { id: file.id, label: file.label, sections: live.n };
}

type Vectors = { model: string | null; byId: Map<string, Float32Array> };

async function embedChanged(
  ctx: IndexContext,
  file: ItemRow,
  body: string,
  planned: readonly PlannedSection[],
  existing: Map<string, ItemRow>,
  onBeat?: () => void,
): Promise<Vectors> {
  const model = ctx.embedder.state().status === 'on' ? ctx.embedder.modelId() : null;
  const byId = new Map<string, Float32Array>();
  if (!model) return { model: null, byId };
  const todo: { id: string; text: string }[] = [];
  if (file.body !== body || file.embedded_model !== model || file.indexed === 0) {
    todo.push({ id: file.id, text: `${file.label}\n${body}` });
  }
  const reusable = reusableVectors(ctx.db, existing, model);
  for (const s of planned) {
    const prev = existing.get(s.id);
    if (isUnchanged(prev, s, file) && prev?.embedded_model === model) continue;
    // A section whose text did not change between versions keeps its vector: no re-embedding.
    const kept = reusable.get(`${s.label}\n${s.body}`);
    if (kept) byId.set(s.id, kept);
    else todo.push({ id: s.id, text: `${s.label}\n${s.body}` });
  }
  if (todo.length === 0) return { model, byId };
  try {
    const out = await ctx.embedder.embed(
      todo.map((t) => t.text),
      () => onBeat?.(),
    );
    todo.forEach((t, i) => {
      const v = out[i];
      if (v) byId.set(t.id, v);
    });
    return { model: ctx.embedder.modelId(), byId };
  } catch {
    // Semantic search going off never fails an index: the file stays keyword-searchable and is
    // embedded later, when the model works again.
    return { model: null, byId: new Map() };
  }
}

/** Vectors of the file's current sections under this model, by their embedded text. */
function reusableVectors(db: Db, existing: Map<string, ItemRow>, model: string): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  const get = stmt(db, 'SELECT embedding FROM vec_items WHERE item_rowid = ?');
  for (const row of existing.values()) {
    if (row.retired_at !== null || row.embedded_model !== model) continue;
    const hit = get.get(BigInt(row.rowid)) as { embedding: Buffer } | undefined;
    if (!hit) continue;
    const copy = new Uint8Array(hit.embedding).buffer;
    out.set(`${row.label}\n${row.body}`, new Float32Array(copy));
  }
  return out;
}

function writeIndex(
  ctx: IndexContext,
  fileAtStart: ItemRow,
  extraction: Extraction,
  body: string,
  planned: readonly PlannedSection[],
  vectors: Vectors,
): void {
  const db = ctx.db;
  const file = getRow(db, fileAtStart.id);
  if (!file || file.blob !== fileAtStart.blob) {
    throw new AppError(
      'conflict',
      `${fileAtStart.label} changed while it was being indexed; index it again.`,
    );
  }
  const now = new Date().toISOString();
  const existing = new Map(
    (
      stmt(db, "SELECT * FROM items WHERE file_id = ? AND storage_kind = 'section'").all(file.id) as ItemRow[]
    ).map((r) => [r.id, r]),
  );
  const keep = new Set<string>();
  const byChunk = new Map<string, string>();
  const toLink: string[] = [];
  // Full-text changes go last, together (see FtsBatch); each kind of write is done in one run,
  // which keeps SQLite on the same pages of one table at a time.
  const fts = new FtsBatch();
  // The file and all its sections carry the document's own date when it states one ([R2]).
  const date = fileDate(file, extraction);
  for (const s of planned) {
    keep.add(s.id);
    byChunk.set(s.chunkKey, s.id);
    // An unchanged section already has its live HAS_SECTION edge.
    const at = { now, occurredAt: date.occurredAt };
    if (upsertSection(ctx, file, s, existing.get(s.id), at, vectors, fts)) toLink.push(s.id);
  }
  for (const id of toLink) linkSection(db, file, id, now);
  for (const prev of existing.values()) {
    if (keep.has(prev.id) || prev.retired_at !== null) continue;
    retireSection(db, file, prev, now, byChunk.get(chunkKeyOf(file, prev)) ?? null, fts);
  }
  updateFileRow(db, file, extraction, body, { now, date }, vectors, fts);
  fts.apply(db);
}

function upsertSection(
  ctx: IndexContext,
  file: ItemRow,
  s: PlannedSection,
  prev: ItemRow | undefined,
  at: { now: string; occurredAt: string | null },
  vectors: Vectors,
  fts: FtsBatch,
): boolean {
  const db = ctx.db;
  const { now, occurredAt } = at;
  const vector = vectors.byId.get(s.id);
  if (isUnchanged(prev, s, file)) {
    if (prev && vector && vectors.model) vecUpsert(db, prev, vectors.model, vector);
    // Same text, another date (indexed before the document's date was read): only the date moves.
    if (prev && prev.occurred_at !== occurredAt) {
      stmt(db, 'UPDATE items SET occurred_at = ?, updated_at = ?, version = version + 1 WHERE id = ?').run(
        occurredAt,
        now,
        prev.id,
      );
    }
    return false;
  }
  let rowid: number;
  if (prev) {
    rowid = prev.rowid;
    if (isSearchable(prev)) fts.remove(prev);
    stmt(
      db,
      `UPDATE items SET label = ?, body = ?, blob = ?, format = ?, locator = ?, ordinal = ?, scope = ?, indexed = 1,
       occurred_at = ?, retired_at = NULL, embedded_model = NULL, updated_at = ?, version = version + 1 WHERE id = ?`,
    ).run(s.label, s.body, file.blob, file.format, s.locator, s.ordinal, file.scope, occurredAt, now, s.id);
    vecDelete(db, prev.rowid);
  } else {
    const inserted = stmt(
      db,
      `INSERT INTO items (id, workspace_id, storage_kind, kind, label, body, source_key, blob, format, file_id,
       ordinal, locator, indexed, scope, origin_actor, origin_source, origin_at, occurred_at, created_at, updated_at)
       VALUES (?, ?, 'section', 'section', ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, 'index', ?, ?, ?, ?)`,
    ).run(
      s.id,
      ctx.workspaceId,
      s.label,
      s.body,
      s.key,
      file.blob,
      file.format,
      file.id,
      s.ordinal,
      s.locator,
      file.scope,
      file.origin_actor,
      now,
      occurredAt,
      now,
      now,
    );
    rowid = Number(inserted.lastInsertRowid);
  }
  const row = { rowid, label: s.label, body: s.body, storage_kind: 'section' as const, scope: file.scope };
  fts.add(row);
  if (vector && vectors.model) vecUpsert(db, row, vectors.model, vector);
  return true;
}

function linkSection(db: Db, file: ItemRow, sectionId: string, now: string): void {
  const id = edgeId(file.id, 'HAS_SECTION', sectionId);
  stmt(
    db,
    `INSERT INTO edges (id, type, from_id, to_id, origin_actor, origin_source, origin_at)
     VALUES (?, 'HAS_SECTION', ?, ?, ?, 'index', ?)
     ON CONFLICT (id) DO UPDATE SET retired_at = NULL WHERE retired_at IS NOT NULL`,
  ).run(id, file.id, sectionId, file.origin_actor, now);
}

/** The chunk key inside a section's source key (`<file key>@<version>#<chunk>`). */
function chunkKeyOf(file: ItemRow, section: ItemRow): string {
  const rest = section.source_key.slice(file.source_key.length);
  return rest.startsWith('@') ? rest.slice(rest.indexOf('#') + 1) : rest.slice(1);
}

/** Retired, not deleted: it stays readable with its history, pointing at what replaced it. */
function retireSection(
  db: Db,
  file: ItemRow,
  prev: ItemRow,
  now: string,
  successor: string | null,
  fts: FtsBatch,
): void {
  if (isSearchable(prev)) fts.remove(prev);
  vecDelete(db, prev.rowid);
  stmt(db, 'UPDATE items SET retired_at = ?, superseded_by = ?, updated_at = ? WHERE id = ?').run(
    now,
    successor,
    now,
    prev.id,
  );
  if (successor) {
    stmt(
      db,
      `INSERT OR IGNORE INTO edges (id, type, from_id, to_id, origin_actor, origin_source, origin_at)
       VALUES (?, 'SUPERSEDES', ?, ?, ?, 'index', ?)`,
    ).run(edgeId(successor, 'SUPERSEDES', prev.id), successor, prev.id, file.origin_actor, now);
  }
  stmt(db, 'UPDATE edges SET retired_at = ? WHERE id = ?').run(now, edgeId(file.id, 'HAS_SECTION', prev.id));
}

function updateFileRow(
  db: Db,
  file: ItemRow,
  extraction: Extraction,
  body: string,
  at: { now: string; date: FileDate },
  vectors: Vectors,
  fts: FtsBatch,
): void {
  const { now, date } = at;
  const health = JSON.stringify(withDatedNote(mergeHealth(db, file, extraction.health), date));
  const summary = extraction.title;
  const occurredAt = date.occurredAt;
  const same =
    file.indexed === 1 &&
    file.body === body &&
    file.health === health &&
    file.summary === summary &&
    file.occurred_at === occurredAt &&
    file.index_error === null;
  if (!same) {
    if (isSearchable(file)) fts.remove(file);
    stmt(
      db,
      `UPDATE items SET body = ?, summary = ?, health = ?, occurred_at = ?, indexed = 1, index_error = NULL,
       updated_at = ? WHERE id = ?`,
    ).run(body, summary, health, occurredAt, now, file.id);
    fts.add({ rowid: file.rowid, label: file.label, body });
  }
  const vector = vectors.byId.get(file.id);
  if (vector && vectors.model) vecUpsert(db, file, vectors.model, vector);
}

function mergeHealth(db: Db, file: ItemRow, fromExtraction: readonly string[]): string[] {
  // A same-bytes note stays only while it names a file every reader of this one sees (org, or
  // this file's own scope): one an older release wrote about a hidden file is dropped here.
  const addNotes = visibleHealth(db, file, ['org', file.scope]).filter(
    (n) => isSameBytesNote(n) || n.startsWith('named '),
  );
  return [...new Set([...addNotes, ...fromExtraction])];
}

/** A failed index leaves the file as it was (not answerable from the new bytes) with the reason. */
export function markFailed(db: Db, fileId: string, reason: string): void {
  writeTx(db, () => {
    stmt(db, 'UPDATE items SET index_error = ?, updated_at = ? WHERE id = ?').run(
      reason,
      new Date().toISOString(),
      fileId,
    );
  });
}
