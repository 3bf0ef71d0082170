/**
 * Trees travel between replicas (docs/TREES.md [T13]). A connected repository's record (its name,
 * branch, indexed commit and a fingerprint of its documents) syncs as an operation of storage
 * kind `tree` in its creator's namespace; its documents already sync as file items.
 * - `item_id`: the id the record syncs under (made like a file's, src/shared/ids.ts);
 * - `remote`: 1 for a tree another replica connected (built here from its synced documents, with
 *   no repository on this device), 0 for one connected here;
 * - `record`: the record as JSON (made by the last build here, or as received);
 * - `retired_at`: a disconnected repository's record stays as a tombstone, so replicas learn of it;
 * - `updated_at`, `version`: the record's synced clock fields;
 * - `waiting_for`: how many documents a received tree still waits for (not synced);
 * - `items_tree_docs`: a tree's documents are found by their source key (`tree:<tree id>:<path>`).
 * A remote tree is keyed by its record's id (two members may connect the same folder path), so the
 * unique root holds only for trees connected here. The triggers record a change of a local
 * record while connected, like the item triggers of 0006.
 */
import { recording } from './sql-parts.ts';

const change = `DELETE FROM sync_changes WHERE kind = 'item' AND ref = NEW.item_id;
   INSERT INTO sync_changes (kind, ref, changed_ms) VALUES ('item', NEW.item_id, CAST(unixepoch('subsec') * 1000 AS INTEGER));`;

export const sql = `
ALTER TABLE tree_sources ADD COLUMN item_id TEXT;
ALTER TABLE tree_sources ADD COLUMN remote INTEGER NOT NULL DEFAULT 0 CHECK (remote IN (0, 1));
ALTER TABLE tree_sources ADD COLUMN record TEXT;
ALTER TABLE tree_sources ADD COLUMN retired_at TEXT;
ALTER TABLE tree_sources ADD COLUMN updated_at TEXT;
ALTER TABLE tree_sources ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE tree_sources ADD COLUMN waiting_for INTEGER;
DROP INDEX tree_sources_root;
CREATE UNIQUE INDEX tree_sources_root ON tree_sources(root) WHERE remote = 0;
CREATE UNIQUE INDEX tree_sources_item ON tree_sources(item_id);
CREATE INDEX items_tree_docs ON items(source_key) WHERE storage_kind = 'file' AND source_key LIKE 'tree:%';

CREATE TRIGGER tree_sources_sync_insert AFTER INSERT ON tree_sources
WHEN NEW.remote = 0 AND NEW.item_id IS NOT NULL AND NEW.record IS NOT NULL AND ${recording}
BEGIN
  ${change}
END;

CREATE TRIGGER tree_sources_sync_update AFTER UPDATE OF item_id, record, scope, retired_at ON tree_sources
WHEN NEW.remote = 0 AND NEW.item_id IS NOT NULL AND NEW.record IS NOT NULL AND ${recording}
  AND (OLD.item_id IS NOT NEW.item_id OR OLD.record IS NOT NEW.record OR OLD.scope IS NOT NEW.scope
       OR OLD.retired_at IS NOT NEW.retired_at)
BEGIN
  ${change}
END;
`;
