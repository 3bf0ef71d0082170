/**
 * Observations, the cheap write path of agent brains (docs/AGENTS.md [G1], [G2]): one insert, no
 * model. Every rule is checked here, whatever surface called: a bad field is refused with its name
 * and nothing is written. Content is append-only at the database (migration 0017-observations):
 * nothing here updates or deletes a row. An observation is kept in the scope of the agent's brain it
 * feeds when the member may write there, else the member's user scope ([G1], [G10]); a reader lists
 * only those in scopes they can see.
 */

import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  agentNameProblem,
  HUMAN_TYPE_PREFIX,
  OBSERVATION_LIMITS as L,
  type ObservationSchema,
} from '#shared/api/ops/agents.ts';
import { ONE_LINE_MESSAGE, ONE_LINE_RE } from '#shared/api/schemas.ts';
import { AppError } from '#shared/errors.ts';
import type { Db } from '../db/driver.ts';
import { observationId } from '../ids.ts';
import { canSee, visibleScopes } from '../scope.ts';
import { type AgentRow, ensureAgent, findAgent, getAgentById } from './agents.ts';

export type Observation = z.output<typeof ObservationSchema>;

/** Who records: the member acting, and the agent and run it acts in (none for a person, [G2]). */
export type Observer = {
  workspaceId: string;
  user: string;
  agent: string | null;
  /** An agent's run; for a person, the run their feedback is on ([G10]: RUN_FEEDBACK_TYPES only). */
  run: string | null;
};

/** The types a person may record on a run ([G10]): it counts toward the run's brain version ([G8]). */
export const RUN_FEEDBACK_TYPES = ['human_thumbs_up', 'human_thumbs_down', 'human_feedback'] as const;

export type ObserveInput = {
  type: string;
  text?: string | null;
  payload?: Record<string, unknown> | null;
  importance?: number | null;
};

export type ObservationFilter = {
  agent?: string;
  type?: string;
  minImportance?: number;
  unsynthesized?: boolean;
  limit?: number;
  offset?: number;
};

/** An observation as its table holds it. */
export type ObservationRow = {
  id: string;
  agent: string | null;
  agent_id: string | null;
  key: string;
  type: string;
  text: string | null;
  payload: string | null;
  importance: number;
  scope: string;
  user_id: string;
  run_id: string | null;
  created_at: string;
  synthesized_at: string | null;
  synthesized_version: number | null;
};

function refuse(field: string, reason: string): never {
  throw new AppError('validation-failed', `observations.add: ${field}: ${reason}`);
}

function checkType(type: string, agent: string | null): string {
  const t = type.trim();
  if (t.length < 1 || t.length > L.typeChars)
    refuse('type', `1 to ${L.typeChars} characters (got ${t.length}).`);
  if (!ONE_LINE_RE.test(t)) refuse('type', `${ONE_LINE_MESSAGE}.`);
  const human = t.startsWith(HUMAN_TYPE_PREFIX);
  if (agent === null && !human)
    refuse(
      'type',
      `a person's observation has a type starting with ${HUMAN_TYPE_PREFIX} (got "${t}"); an agent's is recorded through its MCP server or with --agent.`,
    );
  // Any case: an agent's "HUMAN_feedback" would read as a person's to the synthesis model.
  if (agent !== null && t.toLowerCase().startsWith(HUMAN_TYPE_PREFIX))
    refuse(
      'type',
      `${HUMAN_TYPE_PREFIX}* types are people's feedback; an agent records its own types (got "${t}").`,
    );
  return t;
}

function checkText(text: string | null | undefined): string | null {
  const t = text?.trim() ?? '';
  if (t.length > L.textChars) refuse('text', `at most ${L.textChars} characters (got ${t.length}).`);
  return t || null;
}

function checkPayload(payload: Record<string, unknown> | null | undefined): string | null {
  if (payload === null || payload === undefined) return null;
  if (typeof payload !== 'object' || Array.isArray(payload)) refuse('payload', 'a JSON object.');
  const json = JSON.stringify(payload);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > L.payloadBytes) refuse('payload', `at most ${L.payloadBytes} bytes as JSON (got ${bytes}).`);
  return json;
}

function checkImportance(importance: number | null | undefined): number {
  if (importance === null || importance === undefined) return L.defaultImportance;
  if (!Number.isFinite(importance) || importance < 0 || importance > 1)
    refuse('importance', `a number from 0 to 1 (got ${importance}).`);
  return importance;
}

function checkObserver(who: Observer, type: string): void {
  // docs/AGENTS.md [G2]: also not `app` or `cli`, which mark a run a member ended.
  const problem = who.agent === null ? null : agentNameProblem(who.agent);
  if (problem) refuse('agent', `${problem}.`);
  if (who.run !== null && (who.run.trim().length < 1 || who.run.length > L.runChars))
    refuse('run', `1 to ${L.runChars} characters.`);
  if (who.run !== null && !ONE_LINE_RE.test(who.run)) refuse('run', `${ONE_LINE_MESSAGE}.`);
  if (
    who.run !== null &&
    who.agent === null &&
    !(RUN_FEEDBACK_TYPES as readonly string[]).includes(type.trim())
  )
    refuse(
      'run',
      `a run is an agent's; a person names one only with feedback on it (${RUN_FEEDBACK_TYPES.join(', ')}; got "${type.trim().slice(0, 64)}").`,
    );
}

/**
 * Where the observation is kept ([G10]): the scope of the agent's brain it feeds (an agent's own, or
 * the agent of the run a person's feedback is on) when the member may write there, else the
 * member's user scope.
 */
function placeFor(db: Db, who: Observer, now: Date): { scope: string; agentId: string | null } {
  const own = `user:${who.user}`;
  let agent: AgentRow | undefined;
  if (who.agent !== null) {
    // An agent's first observation makes its row, in the member's user scope ([G3]).
    agent = ensureAgent(db, who.workspaceId, who.agent, own, who.user, now);
  } else if (who.run !== null) {
    const run = db
      .prepare('SELECT agent, agent_id, user_id FROM runs WHERE id = ? AND workspace_id = ?')
      .get(who.run.trim(), who.workspaceId) as
      | { agent: string; agent_id: string | null; user_id: string | null }
      | undefined;
    if (!run) refuse('run', `no run "${who.run.trim().slice(0, 100)}" here (\`brain runs\` lists them).`);
    agent =
      (run.agent_id ? getAgentById(db, run.agent_id) : undefined) ??
      findAgent(db, who.workspaceId, run.user_id ?? who.user, run.agent);
  }
  const scope = agent && canSee(visibleScopes(db, who.user), agent.scope) ? agent.scope : own;
  // A person's observation feeds every agent ([G3]): it names none.
  return { scope, agentId: who.agent !== null && agent ? agent.id : null };
}

function toObservation(r: ObservationRow): Observation {
  return {
    id: r.id,
    agent: r.agent,
    type: r.type,
    text: r.text,
    payload: r.payload === null ? null : (JSON.parse(r.payload) as Record<string, unknown>),
    importance: r.importance,
    scope: r.scope,
    user: r.user_id,
    run: r.run_id,
    createdAt: r.created_at,
    synthesizedAt: r.synthesized_at,
    synthesizedVersion: r.synthesized_version,
  };
}

/** Records one observation ([G1]); refuses a bad field by name ([G2] for who may send which type). */
export function observe(db: Db, who: Observer, input: ObserveInput, now = new Date()): Observation {
  checkObserver(who, input.type);
  const type = checkType(input.type, who.agent);
  const text = checkText(input.text);
  const payload = checkPayload(input.payload);
  if (text === null && payload === null) refuse('text', 'give text or payload (one of them is required).');
  const importance = checkImportance(input.importance);
  const { scope, agentId } = placeFor(db, who, now);
  const key = randomUUID();
  const id = observationId(who.workspaceId, who.user, key);
  db.prepare(
    `INSERT INTO observations (id, workspace_id, agent, agent_id, key, type, text, payload, importance, scope, user_id,
       run_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    who.workspaceId,
    who.agent,
    agentId,
    key,
    type,
    text,
    payload,
    importance,
    scope,
    who.user,
    who.run?.trim() ?? null,
    now.toISOString(),
  );
  return toObservation(db.prepare('SELECT * FROM observations WHERE id = ?').get(id) as ObservationRow);
}

/** Observations in the scopes the reader can see, newest first, filtered and paged. */
export function listObservations(
  db: Db,
  workspaceId: string,
  visible: readonly string[],
  filter: ObservationFilter = {},
): { observations: Observation[]; total: number } {
  const where = ['workspace_id = ?', `scope IN (${visible.map(() => '?').join(', ') || "''"})`];
  const params: (string | number)[] = [workspaceId, ...visible];
  if (filter.agent !== undefined) {
    where.push('agent = ?');
    params.push(filter.agent);
  }
  if (filter.type !== undefined) {
    where.push('type = ?');
    params.push(filter.type);
  }
  if (filter.minImportance !== undefined) {
    where.push('importance >= ?');
    params.push(filter.minImportance);
  }
  if (filter.unsynthesized) where.push('synthesized_at IS NULL');
  const clause = where.join(' AND ');
  const total = (
    db.prepare(`SELECT count(*) AS n FROM observations WHERE ${clause}`).get(...params) as { n: number }
  ).n;
  const rows = db
    .prepare(
      `SELECT * FROM observations WHERE ${clause} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
    )
    .all(...params, filter.limit ?? L.listDefault, filter.offset ?? 0) as ObservationRow[];
  return { observations: rows.map(toObservation), total };
}
