/**
 * Versioned sources (docs/FACTS.md [K16]): a source keeps its id across versions (citations, links
 * and facts keep pointing at it), and each earlier version is kept as a retired item of the same
 * kind, keyed `<source key>@v<n>`, whose `superseded_by` is the source. It is made in the source's
 * own namespace, so it syncs like any item of its author ([S25] in docs/SYNC_SPEC.md).
 */
import { AppError } from '#shared/errors.ts';
import { originUser } from '#shared/ids.ts';
import { type Db, stmt } from '../db/driver.ts';
import { ownedItemId } from '../ids.ts';
import type { ItemRow } from '../read/items.ts';
import { visibleRow } from '../read/read.ts';

export type SourceVersion = {
  /** The item holding this version: the source itself for the current one. */
  id: string;
  /** 1 for the first version; the current one is the highest. */
  number: number;
  current: boolean;
  label: string;
  /** When this version's content was made (the file's date, the note's writing). */
  at: string;
  /** When it stopped being current; null for the current version. */
  replacedAt: string | null;
  size: number | null;
  blob: string | null;
};

/** The source key of a source's n-th version. */
function versionKey(sourceKey: string, n: number): string {
  return `${sourceKey}@v${n}`;
}

/**
 * The source's earlier versions. Only its author's count: a row another member made that claims to
 * be one (the server checks that every origin names its writer, [S26] in docs/SYNC_SPEC.md) is no
 * version of it.
 */
export function earlierVersions(db: Db, source: ItemRow): ItemRow[] {
  const author = originUser(source.origin_actor);
  return (
    stmt(
      db,
      `SELECT * FROM items WHERE superseded_by = ? AND storage_kind = ? AND source_key LIKE ? ESCAPE '\\'
       ORDER BY created_at, id`,
    ).all(source.id, source.storage_kind, `${source.source_key.replace(/[\\%_]/g, '\\$&')}@v%`) as ItemRow[]
  ).filter(
    (r) =>
      /^@v\d+$/.test(r.source_key.slice(source.source_key.length)) && originUser(r.origin_actor) === author,
  );
}

function versionNumber(source: ItemRow, row: ItemRow): number {
  return Number(row.source_key.slice(source.source_key.length + 2)) || 0;
}

/**
 * Keeps `source` as it is now as its next archived version, before new content replaces it (inside
 * the caller's transaction). `owner` is the member whose namespace the source's id is in.
 */
export function archiveVersion(
  db: Db,
  workspaceId: string,
  owner: string,
  source: ItemRow,
  now: string,
): string {
  if (source.storage_kind !== 'file' && source.storage_kind !== 'note')
    throw new Error(`only files and notes have versions, not ${source.storage_kind}`);
  const n = Math.max(0, ...earlierVersions(db, source).map((r) => versionNumber(source, r))) + 1;
  const key = versionKey(source.source_key, n);
  const id = ownedItemId(workspaceId, source.storage_kind, owner, key);
  stmt(
    db,
    `INSERT INTO items (id, workspace_id, storage_kind, kind, label, summary, body, source_key, canonical_type,
       canonical_value, blob, format, size, indexed, health, scope, origin_actor, origin_source, origin_run,
       origin_at, occurred_at, retired_at, superseded_by, created_at, updated_at)
     SELECT ?, workspace_id, storage_kind, kind, label, summary, body, ?, canonical_type, canonical_value, blob,
       format, size, 0, health, scope, origin_actor, origin_source, origin_run, origin_at,
       COALESCE(occurred_at, origin_at), ?, id, ?, ?
     FROM items WHERE id = ?`,
  ).run(id, key, now, now, now, source.id);
  return id;
}

/** How many versions a file or note has (1 while nothing replaced it); 1 for anything else. */
export function versionCount(db: Db, source: ItemRow): number {
  if (source.storage_kind !== 'file' && source.storage_kind !== 'note') return 1;
  return earlierVersions(db, source).length + 1;
}

/** A source's versions, newest first: the current one, then the ones it replaced. */
export function sourceVersions(db: Db, scopes: readonly string[], id: string): SourceVersion[] {
  const source = visibleRow(db, id, scopes);
  if (source.storage_kind !== 'file' && source.storage_kind !== 'note')
    throw new AppError(
      'validation-failed',
      `${id} is a ${source.storage_kind}: only files and notes have versions.`,
    );
  const archived = earlierVersions(db, source)
    .map((r) => ({ row: r, n: versionNumber(source, r) }))
    .sort((a, b) => a.n - b.n);
  const versions: SourceVersion[] = archived.map(({ row, n }) => ({
    id: row.id,
    number: n,
    current: false,
    label: row.label,
    at: row.occurred_at ?? row.origin_at,
    // An archived version is made the moment the next one replaced it.
    replacedAt: row.created_at,
    size: row.size,
    blob: row.blob,
  }));
  versions.push({
    id: source.id,
    number: (archived.at(-1)?.n ?? 0) + 1,
    current: true,
    label: source.label,
    at: source.occurred_at ?? source.origin_at,
    replacedAt: null,
    size: source.size,
    blob: source.blob,
  });
  return versions.reverse();
}

/** The archived version of `source` whose text holds `quote`, newest first; null when none does. */
export function versionHolding(db: Db, source: ItemRow, quote: string): ItemRow | null {
  if (!quote) return null;
  const rows = earlierVersions(db, source).sort(
    (a, b) => versionNumber(source, b) - versionNumber(source, a),
  );
  return rows.find((r) => r.body.includes(quote)) ?? null;
}
