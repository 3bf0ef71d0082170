/**
 * Agents: the `runs` an agent hands in at its end (brain_run_end), waiting for the write-back pass
 * of a later issue, and an index so the Activity list reads one user's telemetry newest first.
 */
export const sql = `
CREATE TABLE runs (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  agent TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('succeeded', 'blocked', 'failed', 'cancelled')),
  work_products TEXT NOT NULL,
  writeback_state TEXT NOT NULL CHECK (writeback_state IN ('pending', 'running', 'done', 'skipped')),
  started_at TEXT,
  ended_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX runs_writeback ON runs (writeback_state, ended_at);

CREATE INDEX telemetry_user ON telemetry (user_id, id);
`;
