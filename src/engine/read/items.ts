/** Item rows and the FTS bookkeeping that must change in the same transaction as them. */
import type { Locator, StorageKind } from '#shared/types.ts';
import { type Db, stmt } from '../db/driver.ts';
import { indexText } from '../search/scripts.ts';

export type ItemRow = {
  rowid: number;
  id: string;
  workspace_id: string;
  storage_kind: StorageKind;
  kind: string;
  label: string;
  summary: string | null;
  body: string;
  source_key: string;
  canonical_type: string | null;
  canonical_value: string | null;
  blob: string | null;
  format: string | null;
  size: number | null;
  file_id: string | null;
  ordinal: number | null;
  locator: string | null;
  indexed: number;
  index_error: string | null;
  /** 1: a file read by OCR, its text layers ignored (docs/OCR.md [O9]); local, like index_error. */
  read_by_ocr: number;
  health: string | null;
  scope: string;
  origin_actor: string;
  origin_source: string;
  origin_run: string | null;
  origin_at: string;
  occurred_at: string | null;
  embedded_model: string | null;
  retired_at: string | null;
  superseded_by: string | null;
  created_at: string;
  updated_at: string;
  version: number;
};

/** Items that search can find: indexed and not retired. Exactly these rows are in items_fts. */
export function isSearchable(row: Pick<ItemRow, 'indexed' | 'retired_at'>): boolean {
  return row.indexed === 1 && row.retired_at === null;
}

export function getRow(db: Db, id: string): ItemRow | undefined {
  return stmt(db, 'SELECT * FROM items WHERE id = ?').get(id) as ItemRow | undefined;
}

export function ftsInsert(db: Db, row: Pick<ItemRow, 'rowid' | 'label' | 'body'>): void {
  stmt(db, 'INSERT INTO items_fts (rowid, label, body) VALUES (?, ?, ?)').run(
    row.rowid,
    indexText(row.label),
    indexText(row.body),
  );
}

export function ftsDelete(db: Db, row: Pick<ItemRow, 'rowid' | 'label' | 'body'>): void {
  stmt(db, "INSERT INTO items_fts (items_fts, rowid, label, body) VALUES ('delete', ?, ?, ?)").run(
    row.rowid,
    indexText(row.label),
    indexText(row.body),
  );
}

type FtsRow = Pick<ItemRow, 'rowid' | 'label' | 'body'>;

/**
 * FTS5 changes gathered during a write transaction and applied together at its end. FTS5 keeps
 * new terms in memory until the transaction commits, but any other statement that opens a
 * statement journal (an insert into items, an upsert of an edge) makes it flush them to disk as
 * a new index segment first. Interleaved with the items and edges of a file's 80 sections, that
 * is 80 tiny segments to merge again, which measured as two thirds of all the pages a Markdown
 * index wrote. Gathered, a file makes one segment.
 */
export class FtsBatch {
  private readonly removed: FtsRow[] = [];
  private readonly added = new Map<number, FtsRow>();

  /**
   * `row` must hold the values the index holds for it (taken before the row is updated). A row
   * added in this batch and not applied yet is simply not added: the index never held it.
   */
  remove(row: FtsRow): void {
    if (this.added.delete(row.rowid)) return;
    this.removed.push({ rowid: row.rowid, label: row.label, body: row.body });
  }

  add(row: FtsRow): void {
    this.added.set(row.rowid, { rowid: row.rowid, label: row.label, body: row.body });
  }

  /** Removals first, so a row updated in place is taken out with its old text, then put back. */
  apply(db: Db): void {
    for (const row of this.removed) ftsDelete(db, row);
    for (const row of this.added.values()) ftsInsert(db, row);
    this.removed.length = 0;
    this.added.clear();
  }
}

export function vecDelete(db: Db, rowid: number): void {
  if (stmt(db, 'DELETE FROM vec_items WHERE item_rowid = ?').run(BigInt(rowid)).changes > 0)
    bumpVectorGeneration(db);
}

/**
 * Every change to vec_items rolls a new generation in the same transaction, so readers that keep
 * vectors in memory (the search mirror) know when to look again — and only then, not after every
 * write (telemetry rows, jobs) as total_changes() would tell them. A generation is random ('g' and
 * 16 hex digits), not a count: a mirror file naming the database's generation is taken whole
 * (src/engine/search/mirror-file.ts), and a database restored from an older copy and written
 * since must not come back to a number an older file names. Databases from before hold a count
 * until their next change.
 */
function bumpVectorGeneration(db: Db): void {
  stmt(
    db,
    `INSERT INTO meta (key, value) VALUES ('vec_generation', 'g' || lower(hex(randomblob(8))))
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  ).run();
}

/** Whether a generation is a random one (see bumpVectorGeneration), which a mirror file may name. */
export const isRandomGeneration = (generation: string): boolean => /^g[0-9a-f]{16}$/.test(generation);

export function vectorGeneration(db: Db): string {
  const row = stmt(db, "SELECT value FROM meta WHERE key = 'vec_generation'").get() as
    | { value: string }
    | undefined;
  return row?.value ?? '0';
}

/** The search stream an item belongs to: entities join the note streams. */
function streamOf(kind: StorageKind): 'file' | 'section' | 'note' {
  return kind === 'entity' ? 'note' : kind;
}

export function vecUpsert(
  db: Db,
  row: Pick<ItemRow, 'rowid' | 'storage_kind' | 'scope'>,
  model: string,
  vector: Float32Array,
): void {
  vecDelete(db, row.rowid);
  stmt(
    db,
    `INSERT INTO vec_items (item_rowid, stream, scope, model, embedding, embedding_bq)
     VALUES (?, ?, ?, ?, ?, vec_quantize_binary(?))`,
  ).run(BigInt(row.rowid), streamOf(row.storage_kind), row.scope, model, vecBlob(vector), vecBlob(vector));
  stmt(db, 'UPDATE items SET embedded_model = ? WHERE rowid = ?').run(model, row.rowid);
  bumpVectorGeneration(db);
}

/**
 * Where a section is in its file. A tree document's file item keeps its repository origin in the
 * same column (`type: 'repo'`, src/engine/tree/share.ts): that is no place in a file, so null.
 */
export function parseLocator(text: string | null): Locator | null {
  if (!text) return null;
  const parsed = JSON.parse(text) as Locator | { type: 'repo' };
  return parsed.type === 'repo' ? null : parsed;
}

export function parseHealth(text: string | null): string[] {
  return text ? (JSON.parse(text) as string[]) : [];
}

/** sqlite-vec takes float32 vectors as little-endian bytes. */
export function vecBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}
