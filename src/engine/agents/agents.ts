/**
 * Agents and their brain versions in the database (docs/AGENTS.md [G3], [G4], [G6]): the agent row
 * made on first need, its tier, the active pointer and rollback, and reading versions. Versions are
 * immutable at the database (migration 0019-agent-brains): nothing here updates or deletes one;
 * rollback moves only the pointer. Who may: reading needs the agent's scope to be visible to the
 * reader; acting (set, rollback, synthesize, prune) needs the reader to be able to write there.
 */
import { agentNameProblem } from '#shared/api/ops/agents.ts';
import { AppError } from '#shared/errors.ts';
import type { Db } from '../db/driver.ts';
import { agentId } from '../ids.ts';
import { canSee, visibleScopes } from '../scope.ts';
import { type Brain, BrainSchema } from './brain-schema.ts';
import { TIER_THRESHOLDS, type Tier } from './config.ts';

export type AgentRow = {
  /** `a_…`, made from the workspace, the creator and the name (src/engine/ids.ts, [G12]). */
  id: string;
  workspace_id: string;
  name: string;
  creator: string;
  tier: Tier;
  scope: string;
  active_version: number | null;
  last_synthesized_at: string | null;
  /** The newest people's observation its syntheses have read ([G3]). */
  human_until: string | null;
  synthesis_owner: string | null;
  synthesis_lease_until: number | null;
  compare_a: number | null;
  compare_b: number | null;
  compare_split: number | null;
  /** When the comparison was set: its counts are of the runs since ([G9]). */
  compare_since: string | null;
  created_at: string;
  updated_at: string;
};

export type VersionRow = {
  id: string;
  workspace_id: string;
  agent_id: string;
  agent: string;
  number: number;
  parent: number | null;
  brain: string;
  observation_ids: string;
  model: string;
  input_tokens: number | null;
  output_tokens: number | null;
  cached_tokens: number | null;
  cost_usd: number | null;
  created_at: string;
  created_by: string;
};

export type VersionMeta = {
  number: number;
  parent: number | null;
  observationIds: string[];
  model: string;
  inputTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
  costUsd: number | null;
  createdAt: string;
  createdBy: string;
};

export function getAgentById(db: Db, id: string): AgentRow | undefined {
  return db.prepare('SELECT * FROM agents WHERE id = ?').get(id) as AgentRow | undefined;
}

/**
 * The agent a member means by a name ([G12]): their own, else one shared with them (a team's
 * before the org's, then the oldest); a replica may hold both its member's own agent of a name and
 * one another member shared.
 */
export function findAgent(db: Db, workspaceId: string, user: string, name: string): AgentRow | undefined {
  const scopes = visibleScopes(db, user);
  return db
    .prepare(
      `SELECT * FROM agents WHERE workspace_id = ? AND name = ?
         AND (creator = ? OR scope IN (${scopes.map(() => '?').join(', ')}))
       ORDER BY creator = ? DESC, CASE WHEN scope LIKE 'user:%' THEN 0 WHEN scope LIKE 'team:%' THEN 1 ELSE 2 END,
         created_at, id
       LIMIT 1`,
    )
    .get(workspaceId, name, user, ...scopes, user) as AgentRow | undefined;
}

/** Any agent of the name (the oldest): for tests and tools that know only one member. */
export function getAgent(db: Db, workspaceId: string, name: string): AgentRow | undefined {
  return db
    .prepare('SELECT * FROM agents WHERE workspace_id = ? AND name = ? ORDER BY created_at, id LIMIT 1')
    .get(workspaceId, name) as AgentRow | undefined;
}

/**
 * The agent `creator` means by `name`, made on first need as their own in `scope` (their user scope
 * by default, [G3]).
 */
export function ensureAgent(
  db: Db,
  workspaceId: string,
  name: string,
  scope: string,
  creator: string,
  now = new Date(),
): AgentRow {
  // docs/AGENTS.md [G2]: also not `app` or `cli`, which mark a run a member ended.
  const problem = agentNameProblem(name);
  if (problem) throw new AppError('validation-failed', `agent: ${problem}.`);
  const found = findAgent(db, workspaceId, creator, name);
  if (found) return found;
  const at = now.toISOString();
  const id = agentId(workspaceId, creator, name);
  db.prepare(
    `INSERT INTO agents (id, workspace_id, name, creator, scope, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO NOTHING`,
  ).run(id, workspaceId, name, creator, scope, at, at);
  return getAgentById(db, id) as AgentRow;
}

/** The agent as `user` may read it; an agent they cannot see is not found (its name tells nothing). */
export function readableAgent(db: Db, workspaceId: string, user: string, name: string): AgentRow {
  const row = findAgent(db, workspaceId, user, name);
  if (!row || !canSee(visibleScopes(db, user), row.scope))
    throw new AppError('not-found', `No agent "${name}" that you can see: \`brain agents list\` shows them.`);
  return row;
}

/** Every scope a reader of `scope` can read: what an agent's synthesis may feed into it ([G3]). */
export function readersScopes(db: Db, scope: string): string[] {
  if (scope.startsWith('user:')) return visibleScopes(db, scope.slice('user:'.length));
  return scope === 'org' ? ['org'] : ['org', scope];
}

export function toMeta(v: VersionRow): VersionMeta {
  return {
    number: v.number,
    parent: v.parent,
    observationIds: JSON.parse(v.observation_ids) as string[],
    model: v.model,
    inputTokens: v.input_tokens,
    outputTokens: v.output_tokens,
    cachedTokens: v.cached_tokens,
    costUsd: v.cost_usd,
    createdAt: v.created_at,
    createdBy: v.created_by,
  };
}

export function parseBrain(v: VersionRow): Brain {
  return BrainSchema.parse(JSON.parse(v.brain));
}

export function getVersion(db: Db, agent: AgentRow, number: number): VersionRow | undefined {
  return db
    .prepare('SELECT * FROM agent_brain_versions WHERE agent_id = ? AND number = ?')
    .get(agent.id, number) as VersionRow | undefined;
}

export function listVersions(db: Db, agent: AgentRow): VersionRow[] {
  return db
    .prepare('SELECT * FROM agent_brain_versions WHERE agent_id = ? ORDER BY number DESC')
    .all(agent.id) as VersionRow[];
}

/** The version the pointer names, or none before the first synthesis. */
export function activeVersion(db: Db, agent: AgentRow): VersionRow | undefined {
  return agent.active_version === null ? undefined : getVersion(db, agent, agent.active_version);
}

/** The agent's qualifying observations no synthesis has read yet ([G3]): what its tier counts. */
export function waitingCount(db: Db, agent: AgentRow, minImportance: number): number {
  const scopes = readersScopes(db, agent.scope);
  return (
    db
      .prepare(
        `SELECT count(*) AS n FROM observations WHERE agent_id = ? AND synthesized_at IS NULL
         AND importance >= ? AND scope IN (${scopes.map(() => '?').join(', ')})`,
      )
      .get(agent.id, minImportance, ...scopes) as { n: number }
  ).n;
}

export function thresholdOf(agent: AgentRow): number {
  return TIER_THRESHOLDS[agent.tier];
}

/** The cost of the agent's versions made since `since` (null when none of them has a price). */
export function costSince(db: Db, agent: AgentRow, since: Date): number | null {
  const row = db
    .prepare(
      // A version of unknown cost makes the window's cost unknown: a partial sum is no total ([G4]).
      `SELECT CASE WHEN count(*) > count(cost_usd) THEN NULL ELSE sum(cost_usd) END AS usd
       FROM agent_brain_versions WHERE agent_id = ? AND created_at >= ?`,
    )
    .get(agent.id, since.toISOString()) as { usd: number | null };
  return row.usd;
}

/** Moves the pointer to an existing version ([G6]); the versions themselves never change. */
export function movePointer(db: Db, agent: AgentRow, to: number, now = new Date()): void {
  if (!getVersion(db, agent, to)) {
    const known = listVersions(db, agent).map((v) => v.number);
    throw new AppError(
      'not-found',
      `agents.rollback: ${agent.name} has no version ${to} (${known.length ? `versions: ${known.reverse().join(', ')}` : 'no versions yet'}).`,
    );
  }
  db.prepare('UPDATE agents SET active_version = ?, updated_at = ? WHERE id = ?').run(
    to,
    now.toISOString(),
    agent.id,
  );
}
