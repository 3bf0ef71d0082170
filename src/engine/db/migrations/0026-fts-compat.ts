/**
 * The full-text index holds presentation and width forms folded by NFKC ([R7] in
 * docs/RETRIEVAL.md, src/engine/search/scripts.ts `compatFolded`): Arabic presentation forms,
 * ligatures, fullwidth Latin, halfwidth katakana. Rows indexed before hold them as written: each
 * such row is taken out with the text it was put in with (0024's spelling) and put back as the
 * index now holds it, in this migration's transaction. Other rows are the same either way. Its
 * shape is 0024's; 0024 is not changed to share it, since an applied migration's code is hashed
 * (migration-hashes.json) and must stay as it ran.
 */
import type Database from 'better-sqlite3';
import { compatFolded, indexText, indexTextBefore0026 } from '../../search/scripts.ts';

export const sql = '';

export function run(db: Database.Database): void {
  const rows = db.prepare('SELECT rowid, label, body FROM items WHERE indexed = 1 AND retired_at IS NULL');
  const remove = db.prepare(
    "INSERT INTO items_fts (items_fts, rowid, label, body) VALUES ('delete', ?, ?, ?)",
  );
  const insert = db.prepare('INSERT INTO items_fts (rowid, label, body) VALUES (?, ?, ?)');
  const changed: { rowid: number; label: string; body: string }[] = [];
  for (const row of rows.iterate() as Iterable<{ rowid: number; label: string; body: string }>) {
    if (compatFolded(row.label) !== row.label || compatFolded(row.body) !== row.body) changed.push(row);
  }
  for (const row of changed) {
    remove.run(row.rowid, indexTextBefore0026(row.label), indexTextBefore0026(row.body));
    insert.run(row.rowid, indexText(row.label), indexText(row.body));
  }
}
