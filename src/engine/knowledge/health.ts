/**
 * A file's health notes (a JSON array of strings) travel with the file to every replica that sees
 * it. One of them names another file (`same bytes as <label>`), so it must never name a file some
 * of those readers cannot see: it is written only when the other file is visible to everyone who
 * sees this one, and read only when the reader can see such a file, since notes written by older
 * releases (or before either file moved) may name one they cannot.
 */
import { type Db, stmt } from '../db/driver.ts';
import { type ItemRow, parseHealth } from '../read/items.ts';

const SAME_BYTES = 'same bytes as ';

export function isSameBytesNote(note: string): boolean {
  return note.startsWith(SAME_BYTES);
}

/**
 * `same bytes as <label>` for a live file with these bytes that everyone who sees `file` sees too:
 * one in org, or in exactly the file's scope. Any other file stays unnamed, and there is no note.
 */
export function sameBytesNote(db: Db, file: { id: string; blob: string; scope: string }): string[] {
  const other = stmt(
    db,
    `SELECT label FROM items WHERE blob = ? AND id != ? AND storage_kind = 'file' AND retired_at IS NULL
     AND scope IN ('org', ?) ORDER BY rowid LIMIT 1`,
  ).get(file.blob, file.id, file.scope || 'org') as { label: string } | undefined;
  return other ? [`${SAME_BYTES}${other.label}`] : [];
}

/** The stored notes with the same-bytes notes recomputed for the file's (new) scope. */
export function healthInScope(db: Db, file: Pick<ItemRow, 'id' | 'blob' | 'scope' | 'health'>): string[] {
  const kept = parseHealth(file.health).filter((n) => !isSameBytesNote(n));
  return file.blob
    ? kept.concat(sameBytesNote(db, { id: file.id, blob: file.blob, scope: file.scope }))
    : kept;
}

/**
 * The notes a reader with these scopes may be shown: a same-bytes note only when they can see a
 * live file of that label with the same bytes; every other note as stored.
 */
export function visibleHealth(
  db: Db,
  row: Pick<ItemRow, 'id' | 'blob' | 'health'>,
  scopes: readonly string[],
): string[] {
  const notes = parseHealth(row.health);
  if (!notes.some(isSameBytesNote)) return notes;
  const visible = stmt(
    db,
    `SELECT 1 FROM items WHERE blob = ? AND label = ? AND id != ? AND storage_kind = 'file'
     AND retired_at IS NULL AND scope IN (SELECT value FROM json_each(?)) LIMIT 1`,
  );
  const seen = JSON.stringify(scopes);
  return notes.filter(
    (n) =>
      !isSameBytesNote(n) ||
      (row.blob !== null && visible.get(row.blob, n.slice(SAME_BYTES.length), row.id, seen) !== undefined),
  );
}
