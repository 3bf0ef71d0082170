/** The first schema: items, edges, people, the job queue, telemetry. Never edit a shipped migration. */
export const sql = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE teams (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE team_members (
  team_id TEXT NOT NULL REFERENCES teams(id),
  user_id TEXT NOT NULL REFERENCES users(id),
  PRIMARY KEY (team_id, user_id)
);

CREATE TABLE items (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  workspace_id TEXT NOT NULL,
  storage_kind TEXT NOT NULL CHECK (storage_kind IN ('file', 'section', 'note', 'entity')),
  kind TEXT NOT NULL,
  label TEXT NOT NULL,
  summary TEXT,
  body TEXT NOT NULL DEFAULT '',
  source_key TEXT NOT NULL,
  canonical_type TEXT,
  canonical_value TEXT,
  blob TEXT,
  format TEXT,
  size INTEGER,
  file_id TEXT,
  ordinal INTEGER,
  locator TEXT,
  indexed INTEGER NOT NULL DEFAULT 0,
  index_error TEXT,
  health TEXT,
  scope TEXT NOT NULL DEFAULT 'org',
  origin_actor TEXT NOT NULL,
  origin_source TEXT NOT NULL,
  origin_run TEXT,
  origin_at TEXT NOT NULL,
  occurred_at TEXT,
  embedded_model TEXT,
  retired_at TEXT,
  superseded_by TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX items_kind_scope ON items (storage_kind, scope);
CREATE INDEX items_blob ON items (blob) WHERE storage_kind = 'file';

CREATE VIRTUAL TABLE items_fts USING fts5 (
  label, body,
  content = 'items', content_rowid = 'rowid',
  tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TABLE edges (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  from_id TEXT NOT NULL,
  to_id TEXT NOT NULL,
  props TEXT,
  origin_actor TEXT NOT NULL,
  origin_source TEXT NOT NULL,
  origin_run TEXT,
  origin_at TEXT NOT NULL,
  retired_at TEXT
);
CREATE INDEX edges_from ON edges (from_id, type);
CREATE INDEX edges_to ON edges (to_id, type);

CREATE TABLE jobs (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  item_id TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  lease_owner TEXT,
  lease_until INTEGER,
  error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX jobs_open ON jobs (kind, item_id) WHERE state IN ('queued', 'running');
CREATE INDEX jobs_state ON jobs (state, id);

CREATE TABLE telemetry (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  surface TEXT NOT NULL,
  user_id TEXT NOT NULL,
  event TEXT NOT NULL,
  data TEXT NOT NULL
);
`;
