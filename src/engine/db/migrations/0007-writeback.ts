/**
 * Write-back, the gate, the review inbox and the audit pass ([W1]–[W4] in docs/PRODUCT.md).
 * - writeback_passes: at most one pass per run (the run id is the key, so a second claim fails in
 *   any process), with its lease, outcome and error.
 * - proposals: every proposal a pass made, with the gate's decision and reason; `review` rows are
 *   the inbox, decided later (approved, possibly edited, or rejected with a reason). Known by id
 *   alone: run ids are chosen by agents, and a replica also holds proposals pulled from other
 *   devices (0009), whose runs may share a name with one here; `run_info` is the run a pulled
 *   proposal came from (that `runs` row is on another device).
 * - audit_passes: the last audit of each file (deterministic or model), for status and tests.
 */
export const sql = `
CREATE TABLE writeback_passes (
  run_id TEXT PRIMARY KEY,
  state TEXT NOT NULL CHECK (state IN ('running', 'done', 'failed')),
  owner TEXT,
  lease_until INTEGER,
  attempts INTEGER NOT NULL DEFAULT 1,
  model TEXT,
  proposed INTEGER NOT NULL DEFAULT 0,
  written INTEGER NOT NULL DEFAULT 0,
  reviewed INTEGER NOT NULL DEFAULT 0,
  skipped INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  started_at TEXT NOT NULL,
  finished_at TEXT
);

CREATE TABLE proposals (
  id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL,
  ordinal INTEGER NOT NULL,
  user_id TEXT,
  kind TEXT NOT NULL,
  label TEXT NOT NULL,
  body TEXT NOT NULL,
  scope TEXT NOT NULL,
  confidence REAL NOT NULL,
  sensitive INTEGER NOT NULL DEFAULT 0,
  sensitive_reason TEXT,
  detected TEXT NOT NULL DEFAULT '[]',
  decision TEXT NOT NULL CHECK (decision IN ('skip', 'review', 'write')),
  reason TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('skipped', 'pending', 'written', 'approved', 'rejected')),
  item_id TEXT,
  edited INTEGER NOT NULL DEFAULT 0,
  decided_by TEXT,
  decided_at TEXT,
  reject_reason TEXT,
  created_at TEXT NOT NULL,
  run_info TEXT
);
CREATE INDEX proposals_state ON proposals (state, created_at);
CREATE INDEX proposals_run ON proposals (run_id, ordinal);

CREATE TABLE audit_passes (
  file_id TEXT PRIMARY KEY,
  mode TEXT NOT NULL CHECK (mode IN ('deterministic', 'model')),
  steps INTEGER NOT NULL DEFAULT 0,
  mentions INTEGER NOT NULL DEFAULT 0,
  links INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  at TEXT NOT NULL
);
`;
