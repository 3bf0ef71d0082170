/**
 * Sync with a workspace server ([T1] in docs/PRODUCT.md). Local changes to items and edges are
 * recorded by triggers in the same transaction as the change (only while connected, and never
 * while pulled changes are applied: `sync_applying` holds a row only inside that transaction).
 * A push round freezes each changed row into an operation with a clock (sync_outbox) and sends
 * it until the server acknowledges it; sync_versions keeps the winning (hlc, op id) per item
 * and edge for last-writer-wins. Tokens are never stored here (a 0600 file in the workspace).
 * The recording condition and statements are in ./sql-parts.ts (0009 uses them too).
 */
import { record, recording } from './sql-parts.ts';

const itemCols = [
  'id',
  'storage_kind',
  'kind',
  'label',
  'summary',
  'body',
  'source_key',
  'canonical_type',
  'canonical_value',
  'blob',
  'format',
  'size',
  'file_id',
  'ordinal',
  'locator',
  'indexed',
  'health',
  'scope',
  'origin_actor',
  'origin_source',
  'origin_run',
  'origin_at',
  'occurred_at',
  'retired_at',
  'superseded_by',
  'created_at',
  'updated_at',
  'version',
];
const edgeCols = [
  'id',
  'type',
  'from_id',
  'to_id',
  'props',
  'origin_actor',
  'origin_source',
  'origin_run',
  'origin_at',
  'retired_at',
];

const changed = (cols: string[]) => cols.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');

export const sql = `
CREATE TABLE sync_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  node TEXT NOT NULL,
  hlc TEXT,
  server TEXT,
  user_id TEXT,
  is_admin INTEGER NOT NULL DEFAULT 0,
  workspace_name TEXT,
  cursor INTEGER NOT NULL DEFAULT 0,
  teams TEXT NOT NULL DEFAULT '[]',
  connected_at TEXT,
  last_attempt TEXT,
  last_sync TEXT,
  is_online INTEGER,
  last_error TEXT
);
INSERT INTO sync_state (id, node) VALUES (1, lower(hex(randomblob(8))));

CREATE TABLE sync_applying (flag INTEGER PRIMARY KEY);

CREATE TABLE sync_changes (
  kind TEXT NOT NULL CHECK (kind IN ('item', 'edge', 'proposal', 'decide')),
  ref TEXT NOT NULL,
  changed_ms INTEGER NOT NULL,
  PRIMARY KEY (kind, ref)
);

CREATE TABLE sync_outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  op_id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  hlc TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX sync_outbox_ref ON sync_outbox (kind, ref);

CREATE TABLE sync_versions (
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  hlc TEXT NOT NULL,
  op_id TEXT NOT NULL,
  PRIMARY KEY (kind, ref)
);

CREATE TABLE sync_blobs_wanted (hash TEXT PRIMARY KEY, attempts INTEGER NOT NULL DEFAULT 0);

CREATE TABLE sync_refused (
  id INTEGER PRIMARY KEY,
  op_id TEXT,
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  reason TEXT NOT NULL,
  at TEXT NOT NULL
);

CREATE TRIGGER items_sync_insert AFTER INSERT ON items WHEN ${recording}
BEGIN ${record('item')} END;
CREATE TRIGGER items_sync_update AFTER UPDATE ON items WHEN ${recording} AND (${changed(itemCols)})
BEGIN ${record('item')} END;
CREATE TRIGGER edges_sync_insert AFTER INSERT ON edges WHEN ${recording}
BEGIN ${record('edge')} END;
CREATE TRIGGER edges_sync_update AFTER UPDATE ON edges WHEN ${recording} AND (${changed(edgeCols)})
BEGIN ${record('edge')} END;
`;
