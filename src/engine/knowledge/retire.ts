/** Retiring: the item stays readable with its history, but search no longer finds it. */
import type { Db } from '../db/driver.ts';
import { writeTx } from '../db/driver.ts';
import { ftsDelete, getRow, type ItemRow, isSearchable, vecDelete } from '../read/items.ts';

export function retireFile(db: Db, fileId: string): boolean {
  return writeTx(db, () => {
    const file = getRow(db, fileId);
    if (!file || file.retired_at !== null) return false;
    const now = new Date().toISOString();
    const sections = db
      .prepare("SELECT * FROM items WHERE file_id = ? AND storage_kind = 'section' AND retired_at IS NULL")
      .all(fileId) as ItemRow[];
    for (const row of [file, ...sections]) {
      if (isSearchable(row)) ftsDelete(db, row);
      vecDelete(db, row.rowid);
      db.prepare('UPDATE items SET retired_at = ?, updated_at = ? WHERE id = ?').run(now, now, row.id);
    }
    db.prepare(
      "UPDATE edges SET retired_at = ? WHERE from_id = ? AND type = 'HAS_SECTION' AND retired_at IS NULL",
    ).run(now, fileId);
    db.prepare(
      "UPDATE jobs SET state = 'done', error = 'retired' WHERE item_id = ? AND state = 'queued'",
    ).run(fileId);
    return true;
  });
}
