/**
 * Agent brains in an export ([N16], [N17] in docs/PACKAGING.md; docs/AGENTS.md [G1]–[G12]): the
 * agents whose brains the member can see, every version of those brains, the observations that
 * feed them in scopes the member can see, and the member's own runs.
 * - Out: as the engine lists them (src/engine/agents): an agent when its scope is visible to the
 *   member; its versions with it; an observation when its scope is visible and, if it names an
 *   agent, that agent goes too (an observation is seen with its agent, as an edge with its two
 *   ends); a run when the member ended it. Rows go out in batches.
 * - In: every line checked before anything is written: its schema, its scope (one the exporting
 *   member could see, scopes.ts), that what it names is in the export, and that its id is the one
 *   the engine derives (src/engine/ids.ts) from the exporting workspace: an agent's from its
 *   creator and name, a version's from its agent's id and number, an observation's from its member
 *   and key (one recorded before keys were kept has its id as its key; one key per member), a
 *   person's observation of a human_* type and an agent's of none, a run the member's own. The
 *   exporting member's own scope becomes the importing member's, and what is in it is theirs (its
 *   agents' creator, its versions' maker, its observations' recorder); what is in the org or a team
 *   keeps who made it ([N19]); the runs (the exporting member's own) become the importer's. Rows of a
 *   team the importer is not a member of are left out and counted ([N20]): an agent with its
 *   versions and the observations naming it. A run whose write-back pass was running waits for it
 *   again.
 *   Versions are immutable and observations append-only (migrations 0017, 0019, 0023): they are
 *   only inserted, agents first, then versions, observations and runs; nothing is updated.
 */
import { join } from 'node:path';
import { HUMAN_TYPE_PREFIX } from '#shared/api/ops/agents.ts';
import { AppError } from '#shared/errors.ts';
import type { AgentRow, VersionRow } from '../agents/agents.ts';
import type { ObservationRow } from '../agents/observations.ts';
import { type Db, stmt } from '../db/driver.ts';
import { agentId, brainVersionId, observationId } from '../ids.ts';
import { canSee } from '../scope.ts';
import { bad, jsonOrText, jsonText, LineFile, parseOptionalLines } from './jsonl.ts';
import {
  type AgentLine,
  AgentLineSchema,
  type AgentVersionLine,
  AgentVersionLineSchema,
  FILES,
  type ObservationLine,
  ObservationLineSchema,
  type RunLine,
  RunLineSchema,
} from './layout.ts';
import { checkScope } from './scopes.ts';

export type AgentCounts = { agents: number; agentVersions: number; observations: number; runs: number };

const BATCH = 500;

type RunRow = RunLine & { workspace_id: string };

/** How many rows of the agent tables an export of this workspace reads: the progress's share. */
export function agentRowsTotal(db: Db, workspaceId: string, user: string): number {
  const count = (sql: string, ...params: string[]) => (db.prepare(sql).get(...params) as { n: number }).n;
  return (
    count('SELECT count(*) AS n FROM agents WHERE workspace_id = ?', workspaceId) +
    count('SELECT count(*) AS n FROM agent_brain_versions WHERE workspace_id = ?', workspaceId) +
    count('SELECT count(*) AS n FROM observations WHERE workspace_id = ?', workspaceId) +
    count('SELECT count(*) AS n FROM runs WHERE workspace_id = ? AND user_id = ?', workspaceId, user)
  );
}

/** The rows of `table` matching `where`, in rowid order, a batch at a time; `tick` after each batch. */
async function scan<R>(
  db: Db,
  table: string,
  where: string,
  params: readonly string[],
  each: (row: R) => void,
  tick: (rows: number) => Promise<void>,
): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = db
      .prepare(`SELECT rowid AS rowid_, * FROM ${table} WHERE ${where} AND rowid > ? ORDER BY rowid LIMIT ?`)
      .all(...params, after, BATCH) as (R & { rowid_: number })[];
    if (rows.length === 0) return;
    for (const { rowid_, ...row } of rows) {
      after = rowid_;
      each(row as R);
    }
    await tick(rows.length);
  }
}

function agentLine(row: AgentRow): AgentLine {
  const { workspace_id: _ws, synthesis_owner: _owner, synthesis_lease_until: _lease, ...line } = row;
  return line;
}

function versionLine(row: VersionRow): AgentVersionLine {
  const { workspace_id: _ws, brain, observation_ids, ...rest } = row;
  const b = jsonOrText(brain);
  const ids = jsonOrText(observation_ids);
  return {
    id: rest.id,
    agent_id: rest.agent_id,
    agent: rest.agent,
    number: rest.number,
    parent: rest.parent,
    brain: b.value,
    ...(b.text === undefined ? {} : { brain_text: b.text }),
    observation_ids: ids.value,
    ...(ids.text === undefined ? {} : { observation_ids_text: ids.text }),
    model: rest.model,
    input_tokens: rest.input_tokens,
    output_tokens: rest.output_tokens,
    cached_tokens: rest.cached_tokens,
    cost_usd: rest.cost_usd,
    created_at: rest.created_at,
    created_by: rest.created_by,
  };
}

function observationLine(row: ObservationRow & { workspace_id: string }): ObservationLine {
  const { workspace_id: _ws, payload, ...rest } = row;
  const p = jsonOrText(payload);
  return {
    id: rest.id,
    agent: rest.agent,
    agent_id: rest.agent_id,
    key: rest.key,
    type: rest.type,
    text: rest.text,
    payload: p.value,
    ...(p.text === undefined ? {} : { payload_text: p.text }),
    importance: rest.importance,
    scope: rest.scope,
    user_id: rest.user_id,
    run_id: rest.run_id,
    created_at: rest.created_at,
    synthesized_at: rest.synthesized_at,
    synthesized_version: rest.synthesized_version,
  };
}

/** Writes agents.jsonl, agent_versions.jsonl, observations.jsonl and runs.jsonl into `work`. */
export async function writeAgentBrains(
  db: Db,
  work: string,
  member: { workspaceId: string; user: string; visible: readonly string[] },
  tick: (rows: number) => Promise<void>,
): Promise<AgentCounts> {
  const { workspaceId, user, visible } = member;
  const counts: AgentCounts = { agents: 0, agentVersions: 0, observations: 0, runs: 0 };
  const kept = new Set<string>();

  const agents = new LineFile(join(work, FILES.agents));
  try {
    await scan<AgentRow>(
      db,
      'agents',
      'workspace_id = ?',
      [workspaceId],
      (row) => {
        if (!canSee(visible, row.scope)) return;
        kept.add(row.id);
        agents.write(agentLine(row));
        counts.agents++;
      },
      tick,
    );
  } finally {
    agents.close();
  }

  const versions = new LineFile(join(work, FILES.agentVersions));
  try {
    for (const agent of kept) {
      let after = 0;
      for (;;) {
        const rows = db
          .prepare(
            'SELECT * FROM agent_brain_versions WHERE agent_id = ? AND number > ? ORDER BY number LIMIT ?',
          )
          .all(agent, after, BATCH) as VersionRow[];
        if (rows.length === 0) break;
        for (const row of rows) {
          after = row.number;
          versions.write(versionLine(row));
          counts.agentVersions++;
        }
        await tick(rows.length);
      }
    }
  } finally {
    versions.close();
  }

  const observations = new LineFile(join(work, FILES.observations));
  try {
    await scan<ObservationRow & { workspace_id: string }>(
      db,
      'observations',
      'workspace_id = ?',
      [workspaceId],
      (row) => {
        if (!canSee(visible, row.scope)) return;
        if (row.agent_id !== null && !kept.has(row.agent_id)) return;
        observations.write(observationLine(row));
        counts.observations++;
      },
      tick,
    );
  } finally {
    observations.close();
  }

  const runs = new LineFile(join(work, FILES.runs));
  try {
    await scan<RunRow>(
      db,
      'runs',
      'workspace_id = ? AND user_id = ?',
      [workspaceId, user],
      ({ workspace_id: _ws, ...line }) => {
        runs.write(line);
        counts.runs++;
      },
      tick,
    );
  } finally {
    runs.close();
  }
  return counts;
}

/** The agent rows of an export, checked and given to the importing member, ready to insert. */
export type AgentBrains = {
  agents: AgentLine[];
  versions: (AgentVersionLine & { brainText: string; observationIdsText: string; n: number })[];
  observations: (ObservationLine & { payloadText: string | null })[];
  runs: RunLine[];
  counts: AgentCounts;
  /** [N20]: rows of teams the importer is not a member of, checked like the rest but not written. */
  leftOut: { counts: AgentCounts; teams: Set<string> };
};

/** A JSON column's text as the database will keep it: the exact text, or the JSON written back. */
function columnText(
  file: string,
  n: number,
  field: string,
  value: unknown,
  text: string | undefined,
): string | null {
  if (text === undefined)
    return value === null || value === undefined ? null : jsonText(file, n, field, value);
  try {
    JSON.parse(text);
  } catch {
    throw bad(file, n, `${field}_text is not JSON`);
  }
  return text;
}

/**
 * Reads and checks the four files (an export made before they were written has none: no rows),
 * and gives what was in the exporting member's (`from`) own scope to the importing member (`to`),
 * leaving out the rows of teams `to` is not a member of (`to.scopes`, the scopes they hold here).
 */
export function readAgentBrains(
  dir: string,
  from: { workspaceId: string; user: string; scopes: ReadonlySet<string> },
  to: { user: string; scopes: ReadonlySet<string> },
): AgentBrains {
  const own = `user:${to.user}`;
  const personal = (scope: string) => (scope === `user:${from.user}` ? own : scope);
  // [N19]: whoever made a row in the importer's own scope, it is theirs now; elsewhere it keeps its maker.
  const madeBy = (scope: string, user: string) => (scope === own ? to.user : user);
  const scopeOf = (file: string, n: number, scope: string) =>
    checkScope(file, n, scope, from.user, from.scopes);
  const leftOut: AgentBrains['leftOut'] = {
    counts: { agents: 0, agentVersions: 0, observations: 0, runs: 0 },
    teams: new Set(),
  };
  const held = (scope: string) => {
    if (to.scopes.has(scope)) return true;
    leftOut.teams.add(scope.replace(/^team:/, ''));
    return false;
  };

  const agentLines = parseOptionalLines(AgentLineSchema, dir, FILES.agents);
  const agents = new Map<string, AgentLine>();
  const agentLineNo = new Map<string, number>();
  const names = new Set<string>();
  for (const { n, value: a } of agentLines) {
    if (agents.has(a.id)) throw bad(FILES.agents, n, `id ${a.id} appears twice`);
    const scope = scopeOf(FILES.agents, n, a.scope);
    if (a.id !== agentId(from.workspaceId, a.creator, a.name)) {
      throw bad(
        FILES.agents,
        n,
        `id ${a.id} is not the id of ${a.creator}'s agent "${a.name}" in workspace ${from.workspaceId} (an agent's id is made from the workspace, its creator and its name)`,
      );
    }
    a.scope = personal(scope);
    a.creator = madeBy(a.scope, a.creator);
    const owned = `${a.creator}\0${a.name}`;
    if (names.has(owned)) throw bad(FILES.agents, n, `${a.creator} has a second agent "${a.name}"`);
    names.add(owned);
    agents.set(a.id, a);
    agentLineNo.set(a.id, n);
  }

  const versions: AgentBrains['versions'] = [];
  const ids = new Set<string>();
  const numbers = new Set<string>();
  for (const { n, value: v } of parseOptionalLines(AgentVersionLineSchema, dir, FILES.agentVersions)) {
    if (ids.has(v.id)) throw bad(FILES.agentVersions, n, `id ${v.id} appears twice`);
    ids.add(v.id);
    const agent = agents.get(v.agent_id);
    if (!agent)
      throw bad(FILES.agentVersions, n, `agent_id ${v.agent_id} is not an agent of ${FILES.agents}`);
    if (v.agent !== agent.name)
      throw bad(
        FILES.agentVersions,
        n,
        `agent "${v.agent}" is not the name of ${v.agent_id} ("${agent.name}")`,
      );
    if (numbers.has(`${v.agent_id}\0${v.number}`))
      throw bad(FILES.agentVersions, n, `version ${v.number} of agent "${v.agent}" appears twice`);
    numbers.add(`${v.agent_id}\0${v.number}`);
    if (v.id !== brainVersionId(from.workspaceId, v.agent_id, v.number)) {
      throw bad(
        FILES.agentVersions,
        n,
        `id ${v.id} is not the id of version ${v.number} of agent "${v.agent}" (a version's id is made from its agent's id and its number)`,
      );
    }
    const brainText = columnText(FILES.agentVersions, n, 'brain', v.brain, v.brain_text);
    const observationIdsText = columnText(
      FILES.agentVersions,
      n,
      'observation_ids',
      v.observation_ids,
      v.observation_ids_text,
    );
    if (brainText === null) throw bad(FILES.agentVersions, n, 'brain: missing');
    if (observationIdsText === null) throw bad(FILES.agentVersions, n, 'observation_ids: missing');
    versions.push({
      ...v,
      created_by: madeBy(agent.scope, v.created_by),
      brainText,
      observationIdsText,
      n,
    });
  }
  // What an agent points at, and a version's parent, are versions of that agent the export holds.
  const hasVersion = (agent: string, number: number) => numbers.has(`${agent}\0${number}`);
  for (const v of versions) {
    if (v.parent !== null && (v.parent >= v.number || !hasVersion(v.agent_id, v.parent)))
      throw bad(
        FILES.agentVersions,
        v.n,
        `parent ${v.parent} is not an earlier version of agent "${v.agent}" in ${FILES.agentVersions}`,
      );
  }
  for (const a of agents.values()) {
    for (const field of ['active_version', 'compare_a', 'compare_b'] as const) {
      const number = a[field];
      if (number !== null && !hasVersion(a.id, number))
        throw bad(
          FILES.agents,
          agentLineNo.get(a.id) ?? 0,
          `${field} ${number} is not a version of agent "${a.name}" in ${FILES.agentVersions}`,
        );
    }
  }

  const observations: AgentBrains['observations'] = [];
  const keys = new Set<string>();
  ids.clear();
  for (const { n, value: o } of parseOptionalLines(ObservationLineSchema, dir, FILES.observations)) {
    if (ids.has(o.id)) throw bad(FILES.observations, n, `id ${o.id} appears twice`);
    ids.add(o.id);
    const scope = scopeOf(FILES.observations, n, o.scope);
    // [G2], [G10]: a person's types are human_*, an agent's never (in any case), as observe() keeps them.
    const human = o.type.toLowerCase().startsWith(HUMAN_TYPE_PREFIX);
    const named = o.agent !== null || o.agent_id !== null;
    if (named && human)
      throw bad(
        FILES.observations,
        n,
        `type ${o.type} is a person's, but the observation names agent "${o.agent ?? o.agent_id}"`,
      );
    if (!named && !o.type.startsWith(HUMAN_TYPE_PREFIX))
      throw bad(
        FILES.observations,
        n,
        `a person's observation has a ${HUMAN_TYPE_PREFIX}* type (got ${o.type})`,
      );
    if (o.agent_id !== null) {
      const agent = agents.get(o.agent_id);
      if (!agent)
        throw bad(FILES.observations, n, `agent_id ${o.agent_id} is not an agent of ${FILES.agents}`);
      if (o.agent !== agent.name)
        throw bad(
          FILES.observations,
          n,
          `agent "${o.agent ?? ''}" is not the name of ${o.agent_id} ("${agent.name}")`,
        );
    }
    // One recorded before keys were kept has its id as its key (migration 0023): that id stands.
    if (o.id !== o.key && o.id !== observationId(from.workspaceId, o.user_id, o.key)) {
      throw bad(
        FILES.observations,
        n,
        `id ${o.id} is not the id of ${o.user_id}'s observation ${o.key} (an observation's id is made from the workspace, its member and its key)`,
      );
    }
    const payloadText = columnText(FILES.observations, n, 'payload', o.payload, o.payload_text);
    if (payloadText !== null && [...payloadText].length > 16384)
      throw bad(FILES.observations, n, 'payload: at most 16384 characters as JSON');
    if (o.text === null && payloadText === null)
      throw bad(FILES.observations, n, 'an observation has text or payload');
    // Re-keying on connecting makes its id from its member and key again: one key per member.
    const user = madeBy(personal(scope), o.user_id);
    const owned = `${user}\0${o.key}`;
    if (keys.has(owned)) throw bad(FILES.observations, n, `${user} has a second observation ${o.key}`);
    keys.add(owned);
    observations.push({ ...o, scope: personal(scope), user_id: user, payloadText });
  }

  const runs: RunLine[] = [];
  ids.clear();
  for (const { n, value: r } of parseOptionalLines(RunLineSchema, dir, FILES.runs)) {
    if (ids.has(r.id)) throw bad(FILES.runs, n, `id ${r.id} appears twice`);
    ids.add(r.id);
    // An export holds the member's own runs only ([N16]): never one filed under another member.
    if (r.user_id !== from.user)
      throw bad(FILES.runs, n, `run ${r.id} is ${r.user_id}'s, not the exporting member's (${from.user})`);
    // A pass running where it was exported has no pass here (passes are not exported) and what
    // it writes stays there: the run waits for its write-back again, as a pass given back does.
    const writeback = r.writeback_state === 'running' ? 'pending' : r.writeback_state;
    runs.push({ ...r, user_id: to.user, writeback_state: writeback });
  }

  // [N20] Checked whole, written in part: an agent of a team the importer is not a member of stays
  // out with its versions and every observation naming it; so does an observation kept in such a team.
  const kept = [...agents.values()].filter((a) => held(a.scope));
  const keptIds = new Set(kept.map((a) => a.id));
  const keptVersions = versions.filter((v) => keptIds.has(v.agent_id));
  const keptObservations = observations.filter(
    (o) => held(o.scope) && (o.agent_id === null || keptIds.has(o.agent_id)),
  );
  leftOut.counts = {
    agents: agents.size - kept.length,
    agentVersions: versions.length - keptVersions.length,
    observations: observations.length - keptObservations.length,
    runs: 0,
  };
  return {
    agents: kept,
    versions: keptVersions,
    observations: keptObservations,
    runs,
    counts: {
      agents: kept.length,
      agentVersions: keptVersions.length,
      observations: keptObservations.length,
      runs: runs.length,
    },
    leftOut,
  };
}

/** Agent rows go only into a workspace holding none: the same ids must not meet other rows. */
export function checkNoAgentBrains(db: Db, brains: AgentBrains): void {
  const { agents, agentVersions, observations, runs } = brains.counts;
  if (agents + agentVersions + observations + runs === 0) return;
  const held = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const n = held('agents') + held('agent_brain_versions') + held('observations') + held('runs');
  if (n > 0) {
    throw new AppError(
      'conflict',
      `This workspace already holds agents, brain versions, observations or runs (${n}): import into an empty workspace (brain --home NEW_FOLDER import DIR). Nothing was imported.`,
    );
  }
}

/** Inserts the checked rows (inside the import's transaction): agents, versions, observations, runs. */
export function insertAgentBrains(db: Db, workspaceId: string, brains: AgentBrains): void {
  const agent = stmt(
    db,
    `INSERT INTO agents (id, workspace_id, name, creator, tier, scope, active_version, last_synthesized_at,
       human_until, compare_a, compare_b, compare_split, compare_since, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const a of brains.agents) {
    agent.run(
      a.id,
      workspaceId,
      a.name,
      a.creator,
      a.tier,
      a.scope,
      a.active_version,
      a.last_synthesized_at,
      a.human_until,
      a.compare_a,
      a.compare_b,
      a.compare_split,
      a.compare_since,
      a.created_at,
      a.updated_at,
    );
  }
  const version = stmt(
    db,
    `INSERT INTO agent_brain_versions (id, workspace_id, agent_id, agent, number, parent, brain, observation_ids,
       model, input_tokens, output_tokens, cached_tokens, cost_usd, created_at, created_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const v of brains.versions) {
    version.run(
      v.id,
      workspaceId,
      v.agent_id,
      v.agent,
      v.number,
      v.parent,
      v.brainText,
      v.observationIdsText,
      v.model,
      v.input_tokens,
      v.output_tokens,
      v.cached_tokens,
      v.cost_usd,
      v.created_at,
      v.created_by,
    );
  }
  const observation = stmt(
    db,
    `INSERT INTO observations (id, workspace_id, agent, agent_id, key, type, text, payload, importance, scope,
       user_id, run_id, created_at, synthesized_at, synthesized_version)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const o of brains.observations) {
    observation.run(
      o.id,
      workspaceId,
      o.agent,
      o.agent_id,
      o.key,
      o.type,
      o.text,
      o.payloadText,
      o.importance,
      o.scope,
      o.user_id,
      o.run_id,
      o.created_at,
      o.synthesized_at,
      o.synthesized_version,
    );
  }
  const run = stmt(
    db,
    `INSERT INTO runs (id, workspace_id, user_id, agent, status, work_products, writeback_state, started_at,
       ended_at, updated_at, brain_version, agent_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const r of brains.runs) {
    run.run(
      r.id,
      workspaceId,
      r.user_id,
      r.agent,
      r.status,
      r.work_products,
      r.writeback_state,
      r.started_at,
      r.ended_at,
      r.updated_at,
      r.brain_version,
      r.agent_id,
    );
  }
}
