/**
 * "The live section that says this quote" (docs/FACTS.md [K17]), written once: the sections of a
 * file that are not retired, of a file that is not retired, whose text holds the quoted words. Used
 * where a claim stands now (facts.ts), where a held fact is cited when a Possible duplicate card is
 * decided (duplicate-decide.ts, [K12]) and where an Empty page is found in SQL (empty-pages.ts, [K13]).
 */
import { type Db, stmt } from '../db/driver.ts';
import type { ItemRow } from '../read/items.ts';

/**
 * The query as SQL to embed (an EXISTS, a join): `file` and `quote` are SQL expressions (a column
 * or a parameter). The section is `qs`, its file `qf`; add conditions after it with AND.
 */
export function liveSectionsSql(file: string, quote: string): string {
  return `SELECT qs.* FROM items qs JOIN items qf ON qf.id = qs.file_id
    WHERE qs.file_id = ${file} AND qs.storage_kind = 'section' AND qs.retired_at IS NULL
      AND qf.retired_at IS NULL AND instr(qs.body, ${quote}) > 0`;
}

const SAYING = `${liveSectionsSql('@file', '@quote')} ORDER BY qs.ordinal, qs.id`;

/** The file's live sections that say `quote`, in the file's order. */
export function liveSectionsSaying(db: Db, fileId: string, quote: string): ItemRow[] {
  return stmt(db, SAYING).all({ file: fileId, quote }) as ItemRow[];
}
