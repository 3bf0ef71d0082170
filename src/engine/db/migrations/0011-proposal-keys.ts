/**
 * A proposal is known by its id (a uuid) alone. `UNIQUE (run_id, ordinal)` from 0007 went: run
 * ids are chosen by agents, and since proposals sync (0009), a replica may hold proposals of two
 * devices' runs that share a name. One write-back pass per run on this device is still enforced
 * by writeback_passes. SQLite cannot drop a table constraint, so the table is rebuilt (its
 * triggers and indexes go with it and are made again).
 */
import { proposalTriggers } from './0009-proposal-sync.ts';

export const sql = `
CREATE TABLE proposals_next (
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
INSERT INTO proposals_next SELECT id, run_id, ordinal, user_id, kind, label, body, scope, confidence, sensitive,
  sensitive_reason, detected, decision, reason, state, item_id, edited, decided_by, decided_at, reject_reason,
  created_at, run_info FROM proposals;
DROP TABLE proposals;
ALTER TABLE proposals_next RENAME TO proposals;
CREATE INDEX proposals_state ON proposals (state, created_at);
CREATE INDEX proposals_run ON proposals (run_id, ordinal);
${proposalTriggers}`;
