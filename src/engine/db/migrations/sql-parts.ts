/**
 * SQL text shared by more than one migration, so that no migration imports another ([D3] in
 * docs/SCHEMA.md): the sync triggers of 0006 (items, edges) and of 0009 (proposals) record a
 * change with the same condition and statements. Shipped migrations run this text: changing it
 * changes them, which the pinned hashes (src/engine/db/migration-hashes.json, [D2]) refuse. A
 * migration that needs other SQL writes it itself.
 */

/** A change is recorded only while connected, and never while pulled changes are applied. */
export const recording = `(SELECT server FROM sync_state WHERE id = 1) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_applying)`;

// Delete then insert, not INSERT OR REPLACE: an outer statement's conflict policy (an upsert, an
// INSERT OR IGNORE) overrides the one written inside a trigger.
export const record = (kind: string) =>
  `DELETE FROM sync_changes WHERE kind = '${kind}' AND ref = NEW.id;
   INSERT INTO sync_changes (kind, ref, changed_ms) VALUES ('${kind}', NEW.id, CAST(unixepoch('subsec') * 1000 AS INTEGER));`;
