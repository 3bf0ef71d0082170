/**
 * The counts `brain status` and the app's status bar show, in one query: the app asks for them
 * after every change it hears of, so they must cost one pass over the items a member sees, not a
 * pass per count.
 */
import { type Db, stmt } from './db/driver.ts';

export type StatusCounts = {
  counts: {
    files: number;
    indexed: number;
    notIndexed: number;
    failed: number;
    sections: number;
    notes: number;
    entities: number;
  };
  queue: { queued: number; running: number };
};

type Row = StatusCounts['counts'] & StatusCounts['queue'];

const IN_SCOPE = 'scope IN (SELECT value FROM json_each(@scopes)) AND retired_at IS NULL';

/**
 * The pass over everything in scope reads only columns of the covering index items_search
 * (migration 0003); `index_error` is not one of them, so failed files are counted over file rows
 * alone (items_kind_scope). Read in the same pass it makes SQLite read every section's whole row,
 * bodies and all: at 100k sections that measured 155 ms against 100 ms for the eight queries this
 * replaces, and 62 ms for this one.
 */
const COUNTS = `
SELECT c.files, c.indexed, c.unindexed - f.failed AS notIndexed, f.failed, c.sections, c.notes, c.entities,
  j.queued, j.running
FROM (
  SELECT count(*) FILTER (WHERE storage_kind = 'file') AS files,
    count(*) FILTER (WHERE storage_kind = 'file' AND indexed = 1) AS indexed,
    count(*) FILTER (WHERE storage_kind = 'file' AND indexed = 0) AS unindexed,
    count(*) FILTER (WHERE storage_kind = 'section') AS sections,
    count(*) FILTER (WHERE storage_kind = 'note') AS notes,
    count(*) FILTER (WHERE storage_kind = 'entity') AS entities
  FROM items WHERE ${IN_SCOPE}
) AS c, (
  SELECT count(*) AS failed FROM items
  WHERE storage_kind = 'file' AND indexed = 0 AND index_error IS NOT NULL AND ${IN_SCOPE}
) AS f, (
  SELECT count(*) FILTER (WHERE state = 'queued') AS queued, count(*) FILTER (WHERE state = 'running') AS running
  FROM jobs WHERE state IN ('queued', 'running')
) AS j`;

/** Files (indexed, not yet, failed), sections, notes and entities in `scopes`, and the index queue. */
export function statusCounts(db: Db, scopes: readonly string[]): StatusCounts {
  const row = stmt(db, COUNTS).get({ scopes: JSON.stringify(scopes) }) as Row;
  return {
    counts: {
      files: row.files,
      indexed: row.indexed,
      notIndexed: row.notIndexed,
      failed: row.failed,
      sections: row.sections,
      notes: row.notes,
      entities: row.entities,
    },
    queue: { queued: row.queued, running: row.running },
  };
}
