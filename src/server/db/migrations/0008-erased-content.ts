/**
 * What an erase erased, by content (docs/SYNC_SPEC.md [S36]): `erased_items.content` is the
 * item's bytes hash (a file's blob) or the sha256 of its body (a note, a section), so the same
 * content is never written again under the erased id, by any device (a watched folder would
 * otherwise add the erased file back on its next look). Tombstones from before have none.
 *
 * `blob_deletions` queues the bytes an erase left unreferenced, in the erase's transaction: they
 * are deleted once it has committed, and a sweep deletes what a crash left queued.
 */
export const migration = {
  id: '0008-erased-content',
  sql: `
ALTER TABLE erased_items ADD COLUMN content TEXT;
CREATE TABLE blob_deletions (
  hash TEXT PRIMARY KEY,
  queued_at TEXT NOT NULL
);
`,
};
