/**
 * The first schema. Times are ISO-8601 UTC strings (TEXT) from the injected clock. `ops` is the
 * append-only message store; `items` and `edges` keep only the current state per id (scope,
 * winning hlc/op, blob) that the server needs to check edges, order writes and filter pulls.
 */
export const migration = {
  id: '0001-initial',
  sql: `
CREATE TABLE workspace (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE members (
  user_id TEXT PRIMARY KEY,
  is_admin BOOLEAN NOT NULL DEFAULT FALSE,
  created_at TEXT NOT NULL,
  removed_at TEXT
);
CREATE TABLE teams (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL
);
CREATE TABLE team_members (
  team_id TEXT NOT NULL REFERENCES teams(id),
  user_id TEXT NOT NULL REFERENCES members(user_id),
  added_at TEXT NOT NULL,
  PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_user ON team_members (user_id);
CREATE TABLE invitations (
  code_hash TEXT PRIMARY KEY,
  user_id TEXT,
  is_admin BOOLEAN NOT NULL,
  teams TEXT NOT NULL,
  created_by TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  redeemed_at TEXT,
  redeemed_device TEXT
);
CREATE TABLE devices (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES members(user_id),
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX devices_user ON devices (user_id);
CREATE TABLE audit_log (
  id BIGSERIAL PRIMARY KEY,
  at TEXT NOT NULL,
  actor TEXT,
  action TEXT NOT NULL,
  subject TEXT,
  details TEXT
);
CREATE TABLE sync_state (
  id INTEGER PRIMARY KEY,
  last_seq BIGINT NOT NULL
);
INSERT INTO sync_state (id, last_seq) VALUES (1, 0);
CREATE TABLE ops (
  seq BIGINT PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  actor TEXT NOT NULL,
  device_id TEXT,
  kind TEXT NOT NULL,
  scope TEXT NOT NULL,
  entity_id TEXT,
  hlc TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  body TEXT NOT NULL,
  received_at TEXT NOT NULL
);
CREATE INDEX ops_entity ON ops (entity_id);
CREATE TABLE items (
  id TEXT PRIMARY KEY,
  scope TEXT NOT NULL,
  hlc TEXT NOT NULL,
  op_id TEXT NOT NULL,
  seq BIGINT NOT NULL,
  blob TEXT
);
CREATE INDEX items_blob ON items (blob) WHERE blob IS NOT NULL;
CREATE INDEX items_scope ON items (scope, seq);
CREATE TABLE edges (
  id TEXT PRIMARY KEY,
  from_id TEXT NOT NULL,
  to_id TEXT NOT NULL,
  scope TEXT NOT NULL,
  hlc TEXT NOT NULL,
  op_id TEXT NOT NULL,
  seq BIGINT NOT NULL
);
CREATE INDEX edges_from ON edges (from_id);
CREATE INDEX edges_to ON edges (to_id);
CREATE TABLE device_holdings (
  device_id TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  PRIMARY KEY (device_id, entity_id)
);
`,
};
