/**
 * Agent brains travel between replicas (docs/AGENTS.md [G12], docs/SYNC_SPEC.md [S37]).
 * - agents: an `id` (`a_…`, made from the workspace, its creator and its name, src/shared/ids.ts)
 *   and its `creator`: two members' agents of one name are two agents, and a replica may hold
 *   both (its member's own and one shared with them). `compare_since`: when the comparison was set
 *   ([G9]: its counts are of the runs since).
 * - agent_brain_versions: `agent_id`; a version's id is made from its agent's id and its number,
 *   so every replica names version N of an agent alike. Still immutable for every surface: the
 *   triggers stand aside only while the one-row gate of migration 0017 is open, which pruning,
 *   re-keying and applying the server's version of a number (the first one it accepted) open
 *   inside their own transactions.
 * - observations: `agent_id` and `key` (the part unique to the one write its id is made from);
 *   both are content, so the content trigger guards them too. The synthesis marks are still set
 *   once, but the gate lets the server's version unmark what only a losing version read.
 * - runs: `agent_id`, the agent whose brain version the run recorded ([G7]).
 * - Triggers record a change of each of the three while connected, like the item triggers of 0006.
 */

import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { agentKey, brainKey, deriveItemId, type Sha256Hex } from '#shared/ids.ts';
import { recording } from './sql-parts.ts';

const change = (ref: string) => `DELETE FROM sync_changes WHERE kind = 'item' AND ref = ${ref};
   INSERT INTO sync_changes (kind, ref, changed_ms) VALUES ('item', ${ref}, CAST(unixepoch('subsec') * 1000 AS INTEGER));`;

const gateClosed = '(SELECT open FROM observation_prune_gate WHERE id = 1) IS NOT 1';

const agentSynced = [
  'tier',
  'scope',
  'active_version',
  'last_synthesized_at',
  'human_until',
  'compare_a',
  'compare_b',
  'compare_split',
  'compare_since',
]
  .map((c) => `OLD.${c} IS NOT NEW.${c}`)
  .join(' OR ');

export const sql = `
CREATE TABLE agents_next (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
  creator TEXT NOT NULL,
  tier TEXT NOT NULL DEFAULT 'default' CHECK (tier IN ('lead', 'default', 'high-volume')),
  scope TEXT NOT NULL,
  active_version INTEGER,
  last_synthesized_at TEXT,
  human_until TEXT,
  synthesis_owner TEXT,
  synthesis_lease_until INTEGER,
  compare_a INTEGER,
  compare_b INTEGER,
  compare_split INTEGER CHECK (compare_split IS NULL OR compare_split BETWEEN 1 AND 99),
  compare_since TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (workspace_id, creator, name)
);
INSERT INTO agents_next (id, workspace_id, name, creator, tier, scope, active_version, last_synthesized_at,
  human_until, synthesis_owner, synthesis_lease_until, compare_a, compare_b, compare_split, compare_since,
  created_at, updated_at)
SELECT 'pending:' || workspace_id || ':' || name, workspace_id, name,
  CASE WHEN scope LIKE 'user:%' THEN substr(scope, 6)
       ELSE coalesce((SELECT user_id FROM sync_state WHERE id = 1),
         (SELECT id FROM users ORDER BY created_at, rowid LIMIT 1), 'local') END,
  tier, scope, active_version, last_synthesized_at, human_until, NULL, NULL, compare_a, compare_b, compare_split,
  CASE WHEN compare_a IS NOT NULL THEN updated_at END, created_at, updated_at
FROM agents;
DROP TABLE agents;
ALTER TABLE agents_next RENAME TO agents;
CREATE INDEX agents_name ON agents (workspace_id, name);

DROP TRIGGER agent_brain_versions_no_update;
DROP TRIGGER agent_brain_versions_no_delete;
CREATE TABLE agent_brain_versions_next (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
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
  UNIQUE (agent_id, number)
);
INSERT INTO agent_brain_versions_next (id, workspace_id, agent_id, agent, number, parent, brain, observation_ids,
  model, input_tokens, output_tokens, cached_tokens, cost_usd, created_at, created_by)
SELECT id, workspace_id, 'pending:' || workspace_id || ':' || agent, agent, number, parent, brain, observation_ids,
  model, input_tokens, output_tokens, cached_tokens, cost_usd, created_at, created_by
FROM agent_brain_versions;
DROP TABLE agent_brain_versions;
ALTER TABLE agent_brain_versions_next RENAME TO agent_brain_versions;
CREATE INDEX agent_brain_versions_created ON agent_brain_versions (created_at);

CREATE TRIGGER agent_brain_versions_no_update
BEFORE UPDATE ON agent_brain_versions
WHEN ${gateClosed}
BEGIN
  SELECT RAISE(ABORT, 'agent brain versions are immutable: a version cannot change (roll back by moving the pointer)');
END;

CREATE TRIGGER agent_brain_versions_no_delete
BEFORE DELETE ON agent_brain_versions
WHEN ${gateClosed}
BEGIN
  SELECT RAISE(ABORT, 'agent brain versions are immutable: a version cannot be deleted');
END;

ALTER TABLE observations ADD COLUMN agent_id TEXT;
ALTER TABLE observations ADD COLUMN key TEXT;
CREATE INDEX observations_agent_id ON observations (agent_id, synthesized_at, importance);

DROP TRIGGER observations_content_immutable;
CREATE TRIGGER observations_content_immutable
BEFORE UPDATE ON observations
WHEN ${gateClosed} AND (
  NEW.id IS NOT OLD.id OR NEW.workspace_id IS NOT OLD.workspace_id OR NEW.agent IS NOT OLD.agent
  OR NEW.type IS NOT OLD.type OR NEW.text IS NOT OLD.text OR NEW.payload IS NOT OLD.payload
  OR NEW.importance IS NOT OLD.importance OR NEW.scope IS NOT OLD.scope OR NEW.user_id IS NOT OLD.user_id
  OR NEW.run_id IS NOT OLD.run_id OR NEW.created_at IS NOT OLD.created_at
  OR NEW.agent_id IS NOT OLD.agent_id OR NEW.key IS NOT OLD.key)
BEGIN
  SELECT RAISE(ABORT, 'observations are append-only: their content cannot change');
END;

DROP TRIGGER observations_synthesis_once;
CREATE TRIGGER observations_synthesis_once
BEFORE UPDATE OF synthesized_at, synthesized_version ON observations
WHEN ${gateClosed} AND (
  (OLD.synthesized_at IS NOT NULL AND NEW.synthesized_at IS NOT OLD.synthesized_at)
  OR (OLD.synthesized_version IS NOT NULL AND NEW.synthesized_version IS NOT OLD.synthesized_version))
BEGIN
  SELECT RAISE(ABORT, 'observations are append-only: synthesis is set once, from NULL');
END;

ALTER TABLE runs ADD COLUMN agent_id TEXT;

CREATE TRIGGER agents_sync_insert AFTER INSERT ON agents WHEN ${recording}
BEGIN ${change('NEW.id')} END;
CREATE TRIGGER agents_sync_update AFTER UPDATE ON agents WHEN ${recording} AND (${agentSynced})
BEGIN ${change('NEW.id')} END;
CREATE TRIGGER agent_brain_versions_sync_insert AFTER INSERT ON agent_brain_versions WHEN ${recording}
BEGIN ${change('NEW.id')} END;
CREATE TRIGGER observations_sync_insert AFTER INSERT ON observations WHEN ${recording}
BEGIN ${change('NEW.id')} END;
`;

const sha: Sha256Hex = (text) => createHash('sha256').update(text).digest('hex');

/** The ids SQL cannot make: each agent's and each version's, from src/shared/ids.ts. */
export function run(db: Database.Database): void {
  db.prepare('UPDATE observation_prune_gate SET open = 1 WHERE id = 1').run();
  const agents = db.prepare('SELECT id, workspace_id, name, creator FROM agents').all() as {
    id: string;
    workspace_id: string;
    name: string;
    creator: string;
  }[];
  const setAgent = db.prepare('UPDATE agents SET id = ? WHERE id = ?');
  const versions = db.prepare('SELECT id, number FROM agent_brain_versions WHERE agent_id = ?');
  const setVersion = db.prepare('UPDATE agent_brain_versions SET id = ?, agent_id = ? WHERE id = ?');
  const setObservations = db.prepare(
    'UPDATE observations SET agent_id = ? WHERE workspace_id = ? AND agent = ?',
  );
  const setRuns = db.prepare('UPDATE runs SET agent_id = ? WHERE workspace_id = ? AND agent = ?');
  for (const a of agents) {
    const id = deriveItemId(sha, a.workspace_id, 'agent', `user:${a.creator}`, agentKey(a.name));
    setAgent.run(id, a.id);
    for (const v of versions.all(a.id) as { id: string; number: number }[])
      setVersion.run(deriveItemId(sha, a.workspace_id, 'brain', id, brainKey(v.number)), id, v.id);
    setObservations.run(id, a.workspace_id, a.name);
    setRuns.run(id, a.workspace_id, a.name);
  }
  // The unique part of an observation made before keys were kept is its id (re-keying made ids from it).
  db.prepare('UPDATE observations SET key = id WHERE key IS NULL').run();
  db.prepare('UPDATE observation_prune_gate SET open = 0 WHERE id = 1').run();
}
