/**
 * What the server needs to be the authority over what clients say (docs/SYNC_SPEC.md [S24]–[S29]):
 * per item its storage kind, its file (sections), the namespace its id was made in ([S25]), who
 * created it (scope changes, [S24]) and its current origin actor ([S26]); per edge its type, its
 * creator and origin actor; and `blob_uploads`, who uploaded which bytes when ([S27]).
 *
 * Rows from before are filled from the ops: the kind, file and origin of the winning op, and the
 * creator as the actor of the first op of the id. Their namespace stays NULL: their ids were made
 * before ids had namespaces, so only their immutable fields are checked, not the id itself.
 */
export const migration = {
  id: '0004-authority',
  sql: `
ALTER TABLE items ADD COLUMN storage_kind TEXT;
ALTER TABLE items ADD COLUMN file_id TEXT;
ALTER TABLE items ADD COLUMN namespace TEXT;
ALTER TABLE items ADD COLUMN created_by TEXT;
ALTER TABLE items ADD COLUMN origin_actor TEXT;
ALTER TABLE edges ADD COLUMN type TEXT;
ALTER TABLE edges ADD COLUMN created_by TEXT;
ALTER TABLE edges ADD COLUMN origin_actor TEXT;

UPDATE items SET
  storage_kind = (o.body::jsonb) -> 'item' ->> 'storage_kind',
  file_id = (o.body::jsonb) -> 'item' ->> 'file_id',
  origin_actor = (o.body::jsonb) -> 'item' ->> 'origin_actor'
FROM ops o WHERE o.seq = items.seq;
UPDATE items SET created_by = (
  SELECT o.actor FROM ops o WHERE o.entity_id = items.id AND o.kind = 'item.upsert' ORDER BY o.seq LIMIT 1);
UPDATE edges SET
  type = (o.body::jsonb) -> 'edge' ->> 'type',
  origin_actor = (o.body::jsonb) -> 'edge' ->> 'origin_actor'
FROM ops o WHERE o.seq = edges.seq;
UPDATE edges SET created_by = (
  SELECT o.actor FROM ops o WHERE o.entity_id = edges.id AND o.kind = 'edge.upsert' ORDER BY o.seq LIMIT 1);
CREATE INDEX items_file ON items (file_id) WHERE file_id IS NOT NULL;

CREATE TABLE blob_uploads (
  hash TEXT NOT NULL,
  user_id TEXT NOT NULL,
  size BIGINT NOT NULL,
  uploaded_at TEXT NOT NULL,
  PRIMARY KEY (hash, user_id)
);
CREATE INDEX blob_uploads_user ON blob_uploads (user_id);
CREATE INDEX blob_uploads_at ON blob_uploads (uploaded_at);
`,
};
