/**
 * Agent brains, the curation path (docs/AGENTS.md [G3]–[G6]).
 * - agents: one row per agent name in the workspace, made on first need (an observation by the
 *   agent, `agents.set`, a synthesis): its tier (the synthesis threshold), the scope its brain is
 *   kept in, the active version (the pointer; rollback moves only it), when it was last
 *   synthesized, how far it has read people's observations (`human_until`), and the synthesis claim (owner token and lease, like writeback_passes).
 * - agent_brain_versions: one immutable row per synthesis: its number (1, 2, 3… per agent), its
 *   parent (the version active when it was made), the brain (JSON), the observation ids that fed
 *   it, the model, the tokens from the API's usage and the estimated cost (NULL: unknown price).
 *   Triggers refuse every UPDATE and every DELETE.
 */
export const sql = `
CREATE TABLE agents (
  workspace_id TEXT NOT NULL,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
  tier TEXT NOT NULL DEFAULT 'default' CHECK (tier IN ('lead', 'default', 'high-volume')),
  scope TEXT NOT NULL,
  active_version INTEGER,
  last_synthesized_at TEXT,
  human_until TEXT,
  synthesis_owner TEXT,
  synthesis_lease_until INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (workspace_id, name)
);

CREATE TABLE agent_brain_versions (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  agent TEXT NOT NULL,
  number INTEGER NOT NULL CHECK (number >= 1),
  parent INTEGER,
  brain TEXT NOT NULL CHECK (json_valid(brain)),
  observation_ids TEXT NOT NULL CHECK (json_valid(observation_ids)),
  model TEXT NOT NULL,
  input_tokens INTEGER,
  output_tokens INTEGER,
  cached_tokens INTEGER,
  cost_usd REAL,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL,
  UNIQUE (workspace_id, agent, number)
);
-- Agents that recorded before this release get their rows here, once (in their recorder's scope).
INSERT OR IGNORE INTO agents (workspace_id, name, scope, created_at, updated_at)
SELECT workspace_id, agent, 'user:' || min(user_id), min(created_at), min(created_at)
FROM observations WHERE agent IS NOT NULL GROUP BY workspace_id, agent;

CREATE INDEX agent_brain_versions_created ON agent_brain_versions (created_at);

CREATE TRIGGER agent_brain_versions_no_update
BEFORE UPDATE ON agent_brain_versions
BEGIN
  SELECT RAISE(ABORT, 'agent brain versions are immutable: a version cannot change (roll back by moving the pointer)');
END;

CREATE TRIGGER agent_brain_versions_no_delete
BEFORE DELETE ON agent_brain_versions
BEGIN
  SELECT RAISE(ABORT, 'agent brain versions are immutable: a version cannot be deleted');
END;
`;
