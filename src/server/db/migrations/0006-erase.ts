/**
 * Erasing a source (docs/SYNC_SPEC.md [S35], [S36]): `erased_items` is the tombstone of every item
 * an erase deleted (the source, its earlier versions and their sections): its id, who erased it
 * and when, nothing of the item. An upsert of a tombstoned id is refused for good.
 *
 * `items.superseded_by` is what the item's winning op says replaced it, so an erase finds a
 * source's earlier versions (items superseded by it) by an index instead of reading op bodies.
 * Rows from before are filled from their winning op.
 */
export const migration = {
  id: '0006-erase',
  sql: `
CREATE TABLE erased_items (
  id TEXT PRIMARY KEY,
  erased_by TEXT NOT NULL,
  erased_at TEXT NOT NULL
);
ALTER TABLE items ADD COLUMN superseded_by TEXT;
UPDATE items SET superseded_by = (o.body::jsonb) -> 'item' ->> 'superseded_by'
FROM ops o WHERE o.seq = items.seq;
CREATE INDEX items_superseded_by ON items (superseded_by) WHERE superseded_by IS NOT NULL;
`,
};
