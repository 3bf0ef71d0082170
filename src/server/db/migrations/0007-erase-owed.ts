/**
 * Who still owes an erase (docs/SYNC_SPEC.md [S36]): an erased file's id comes from its path, so the
 * same id is written again when its author adds a new file there. What decides is not the
 * tombstone but whether the writing device still holds the erased copy.
 * - `device_holdings.erase_seq`: the device holds an erased source and is owed the erase op with
 *   this `seq`; a pull sends it and drops the holding.
 * - `erased_items.source_id`, `erased_items.erase_seq`: the source an erased item (a section, an
 *   earlier version) belonged to and the erase that deleted it, so a write naming any part finds
 *   the erase to send.
 * - `pull_pages.unerased`: the erases a page sent (`[id, seq]` pairs), owed again when the page is
 *   not acknowledged ([S19]).
 * Tombstones from before are filled from the erase that made them (a part's source is not known:
 * it stays its own).
 */
export const migration = {
  id: '0007-erase-owed',
  sql: `
ALTER TABLE erased_items ADD COLUMN source_id TEXT;
ALTER TABLE erased_items ADD COLUMN erase_seq BIGINT;
UPDATE erased_items t SET source_id = t.id, erase_seq = (
  SELECT min(o.seq) FROM ops o WHERE o.kind = 'item.erase' AND o.entity_id = t.id AND o.actor = t.erased_by
);
ALTER TABLE device_holdings ADD COLUMN erase_seq BIGINT;
UPDATE device_holdings h SET erase_seq = t.erase_seq FROM erased_items t WHERE t.id = h.entity_id;
CREATE INDEX device_holdings_erase ON device_holdings (device_id) WHERE erase_seq IS NOT NULL;
ALTER TABLE pull_pages ADD COLUMN unerased TEXT NOT NULL DEFAULT '[]';
`,
};
