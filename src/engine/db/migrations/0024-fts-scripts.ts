/**
 * The full-text index holds Chinese, Japanese and Korean text as character pairs and ß as ss
 * ([R7] in docs/RETRIEVAL.md, src/engine/search/scripts.ts). Rows indexed before hold such text
 * as it was written: each is taken out with that text and put back as the index now holds it, in
 * this migration's transaction. Rows without such text are the same either way and untouched.
 * The spelling is the one of this migration's time (0026 changed it again, and takes rows out
 * with this one).
 */
import type Database from 'better-sqlite3';
import { indexTextBefore0026 as indexText } from '../../search/scripts.ts';

export const sql = '';

export function run(db: Database.Database): void {
  const rows = db.prepare('SELECT rowid, label, body FROM items WHERE indexed = 1 AND retired_at IS NULL');
  const remove = db.prepare(
    "INSERT INTO items_fts (items_fts, rowid, label, body) VALUES ('delete', ?, ?, ?)",
  );
  const insert = db.prepare('INSERT INTO items_fts (rowid, label, body) VALUES (?, ?, ?)');
  const changed: { rowid: number; label: string; body: string }[] = [];
  for (const row of rows.iterate() as Iterable<{ rowid: number; label: string; body: string }>) {
    if (indexText(row.label) !== row.label || indexText(row.body) !== row.body) changed.push(row);
  }
  for (const row of changed) {
    remove.run(row.rowid, row.label, row.body);
    insert.run(row.rowid, indexText(row.label), indexText(row.body));
  }
}
