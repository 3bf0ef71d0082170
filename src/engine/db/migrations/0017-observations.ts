/**
 * Agent observations, the cheap write path of agent brains (docs/AGENTS.md [G1]).
 * - observations: what an agent (or a person, `human_*` with no agent) records during work, with
 *   its importance, the scope of the brain it feeds, the acting member and the run. Append-only at
 *   the database: content never changes; only the two synthesis columns may be set, once, from
 *   NULL; a row is deleted only while the pruning gate is open.
 * - observation_prune_gate: one row; pruning sets `open = 1` inside its own transaction, deletes,
 *   and sets it back before committing. Any other DELETE is refused by the trigger.
 */
export const sql = `
CREATE TABLE observations (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  agent TEXT,
  type TEXT NOT NULL CHECK (length(type) BETWEEN 1 AND 64),
  text TEXT CHECK (text IS NULL OR length(text) <= 4000),
  payload TEXT CHECK (payload IS NULL OR (json_valid(payload) AND length(payload) <= 16384)),
  importance REAL NOT NULL DEFAULT 0.5 CHECK (importance >= 0 AND importance <= 1),
  scope TEXT NOT NULL,
  user_id TEXT NOT NULL,
  run_id TEXT,
  created_at TEXT NOT NULL,
  synthesized_at TEXT,
  synthesized_version INTEGER,
  CHECK (text IS NOT NULL OR payload IS NOT NULL)
);
CREATE INDEX observations_agent_synth ON observations (agent, synthesized_at, importance);
CREATE INDEX observations_created ON observations (created_at);

CREATE TABLE observation_prune_gate (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  open INTEGER NOT NULL DEFAULT 0 CHECK (open IN (0, 1))
);
INSERT INTO observation_prune_gate (id, open) VALUES (1, 0);

CREATE TRIGGER observations_content_immutable
BEFORE UPDATE ON observations
WHEN NEW.id IS NOT OLD.id OR NEW.workspace_id IS NOT OLD.workspace_id OR NEW.agent IS NOT OLD.agent
  OR NEW.type IS NOT OLD.type OR NEW.text IS NOT OLD.text OR NEW.payload IS NOT OLD.payload
  OR NEW.importance IS NOT OLD.importance OR NEW.scope IS NOT OLD.scope OR NEW.user_id IS NOT OLD.user_id
  OR NEW.run_id IS NOT OLD.run_id OR NEW.created_at IS NOT OLD.created_at
BEGIN
  SELECT RAISE(ABORT, 'observations are append-only: their content cannot change');
END;

CREATE TRIGGER observations_synthesis_once
BEFORE UPDATE OF synthesized_at, synthesized_version ON observations
WHEN (OLD.synthesized_at IS NOT NULL AND NEW.synthesized_at IS NOT OLD.synthesized_at)
  OR (OLD.synthesized_version IS NOT NULL AND NEW.synthesized_version IS NOT OLD.synthesized_version)
BEGIN
  SELECT RAISE(ABORT, 'observations are append-only: synthesis is set once, from NULL');
END;

CREATE TRIGGER observations_no_delete
BEFORE DELETE ON observations
WHEN (SELECT open FROM observation_prune_gate WHERE id = 1) IS NOT 1
BEGIN
  SELECT RAISE(ABORT, 'observations are append-only: only pruning deletes them');
END;
`;
