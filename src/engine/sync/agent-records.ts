/**
 * Agent brains between replicas (docs/AGENTS.md [G12], docs/SYNC_SPEC.md [S37], [C17]): an agent,
 * each brain version and each observation travel as an `item.upsert` of its own storage kind with
 * its record in `body` (src/shared/sync/agent-records.ts). This replica keeps them in its own
 * tables (`agents`, `agent_brain_versions`, `observations`), never among its items:
 * - what is sent: the row as it is now (the outbox freezes it, src/engine/sync/outbox.ts); a
 *   version travels in its agent's scope, so sharing an agent sends its versions again;
 * - what is applied: an agent by last writer wins (the caller compares clocks, as for items); a
 *   version as the server's: the first of its number the server accepted, which replaces one this
 *   replica made concurrently (its observations that only the loser read wait again); an
 *   observation once (its content never changes);
 * - what is evicted: the row, and for an agent its versions.
 * Versions and observations are immutable for every surface: only here, inside the apply's
 * transaction, is the one-row gate of migration 0017 opened, and it is closed before returning.
 */
import { actorUnder, agentKey, brainKey, observationKey, originUser } from '#shared/ids.ts';
import {
  type AgentRecord,
  type AgentRecordKind,
  type BrainRecord,
  isAgentRecordKind,
  type ObservationRecord,
  parseAgentRecord,
} from '#shared/sync/agent-records.ts';
import type { SyncItem } from '#shared/sync/protocol.ts';
import type { AgentRow, VersionRow } from '../agents/agents.ts';
import type { ObservationRow } from '../agents/observations.ts';
import { type Db, stmt } from '../db/driver.ts';

/** The kind of record an id names, by its prefix, or null for anything else. */
export function agentRecordKindOf(id: string): AgentRecordKind | null {
  if (id.startsWith('a_')) return 'agent';
  if (id.startsWith('b_')) return 'brain';
  if (id.startsWith('o_')) return 'observation';
  return null;
}

const blank = {
  summary: null,
  canonical_type: null,
  canonical_value: null,
  blob: null,
  format: null,
  size: null,
  ordinal: null,
  locator: null,
  indexed: 0,
  health: null,
  origin_run: null,
  occurred_at: null,
  retired_at: null,
  superseded_by: null,
  version: 1,
  vector: null,
} as const;

/** What differs between the three kinds' items; the rest of a SyncItem is blank. */
type RecordFields = Pick<
  SyncItem,
  | 'id'
  | 'storage_kind'
  | 'kind'
  | 'label'
  | 'source_key'
  | 'file_id'
  | 'scope'
  | 'origin_actor'
  | 'origin_source'
> & { record: object; createdAt: string; updatedAt: string };

/** The `item.upsert` op body that carries one record. */
function upsertOf(f: RecordFields): { body: object } {
  const { record, createdAt, updatedAt, ...fields } = f;
  const item: SyncItem = {
    ...blank,
    ...fields,
    body: JSON.stringify(record),
    origin_at: createdAt,
    created_at: createdAt,
    updated_at: updatedAt,
  };
  return { body: { kind: 'item.upsert', scope: f.scope, item } };
}

/** The op body of a recorded change of an agent record, null when the row is gone (evicted, pruned). */
export function agentRecordCandidate(db: Db, id: string): { body: object } | null {
  const kind = agentRecordKindOf(id);
  if (kind === 'agent') {
    const a = stmt(db, 'SELECT * FROM agents WHERE id = ?').get(id) as AgentRow | undefined;
    if (!a) return null;
    const record: AgentRecord = {
      name: a.name,
      tier: a.tier,
      active_version: a.active_version,
      last_synthesized_at: a.last_synthesized_at,
      human_until: a.human_until,
      compare:
        a.compare_a !== null && a.compare_b !== null && a.compare_split !== null
          ? { a: a.compare_a, b: a.compare_b, split: a.compare_split, since: a.compare_since ?? a.updated_at }
          : null,
    };
    return upsertOf({
      id,
      storage_kind: 'agent',
      kind: 'agent',
      label: a.name,
      record,
      source_key: agentKey(a.name),
      file_id: null,
      scope: a.scope,
      origin_actor: a.creator,
      origin_source: 'agents',
      createdAt: a.created_at,
      updatedAt: a.updated_at,
    });
  }
  if (kind === 'brain') {
    const v = stmt(db, 'SELECT * FROM agent_brain_versions WHERE id = ?').get(id) as VersionRow | undefined;
    const agent = v
      ? (stmt(db, 'SELECT scope FROM agents WHERE id = ?').get(v.agent_id) as { scope: string } | undefined)
      : undefined;
    if (!v || !agent) return null;
    const record: BrainRecord = {
      number: v.number,
      parent: v.parent,
      brain: v.brain,
      observation_ids: JSON.parse(v.observation_ids) as string[],
      model: v.model,
      input_tokens: v.input_tokens,
      output_tokens: v.output_tokens,
      cached_tokens: v.cached_tokens,
      cost_usd: v.cost_usd,
      created_at: v.created_at,
      created_by: v.created_by,
    };
    return upsertOf({
      id,
      storage_kind: 'brain',
      kind: 'brain',
      label: `${v.agent} v${v.number}`,
      record,
      source_key: brainKey(v.number),
      file_id: v.agent_id,
      scope: agent.scope,
      origin_actor: v.created_by,
      origin_source: 'synthesis',
      createdAt: v.created_at,
      updatedAt: v.created_at,
    });
  }
  if (kind === 'observation') {
    const o = stmt(db, 'SELECT * FROM observations WHERE id = ?').get(id) as ObservationRow | undefined;
    if (!o) return null;
    const record: ObservationRecord = {
      key: o.key,
      agent: o.agent,
      type: o.type,
      text: o.text,
      payload: o.payload,
      importance: o.importance,
      user_id: o.user_id,
      run_id: o.run_id,
      created_at: o.created_at,
    };
    return upsertOf({
      id,
      storage_kind: 'observation',
      kind: o.type,
      label: o.type,
      record,
      source_key: observationKey(o.key),
      file_id: o.agent_id,
      scope: o.scope,
      origin_actor: o.agent ? actorUnder(`agent:${o.agent}`, o.user_id) : o.user_id,
      origin_source: 'observe',
      createdAt: o.created_at,
      updatedAt: o.created_at,
    });
  }
  return null;
}

/** True for an item of a storage kind this module keeps. */
export function isAgentRecordItem(item: Pick<SyncItem, 'storage_kind'>): boolean {
  return isAgentRecordKind(item.storage_kind);
}

/** Runs `fn` with the immutability gate of migration 0017 open, closing it whatever happens. */
function throughGate<T>(db: Db, fn: () => T): T {
  stmt(db, 'UPDATE observation_prune_gate SET open = 1 WHERE id = 1').run();
  try {
    return fn();
  } finally {
    stmt(db, 'UPDATE observation_prune_gate SET open = 0 WHERE id = 1').run();
  }
}

/**
 * Applies a pulled agent record (the caller has checked that it is newer than what is held, and
 * runs this inside the page's transaction). A malformed record changes nothing (false).
 */
export function applyAgentRecord(db: Db, workspaceId: string, item: SyncItem): boolean {
  const kind = item.storage_kind as AgentRecordKind;
  const parsed = parseAgentRecord(kind, item.body);
  if (!parsed.ok) {
    console.error(`[sync] ${item.id} was not applied: ${parsed.reason}`);
    return false;
  }
  if (kind === 'agent') applyAgent(db, workspaceId, item, parsed.record as AgentRecord);
  else if (kind === 'brain') applyVersion(db, workspaceId, item, parsed.record as BrainRecord);
  else applyObservation(db, workspaceId, item, parsed.record as ObservationRecord);
  return true;
}

function applyAgent(db: Db, workspaceId: string, item: SyncItem, r: AgentRecord): void {
  const creator = originUser(item.origin_actor) ?? item.origin_actor;
  stmt(
    db,
    `INSERT INTO agents (id, workspace_id, name, creator, tier, scope, active_version, last_synthesized_at, human_until,
       compare_a, compare_b, compare_split, compare_since, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET tier = excluded.tier, scope = excluded.scope,
       active_version = excluded.active_version, last_synthesized_at = excluded.last_synthesized_at,
       human_until = excluded.human_until, compare_a = excluded.compare_a, compare_b = excluded.compare_b,
       compare_split = excluded.compare_split, compare_since = excluded.compare_since,
       updated_at = excluded.updated_at`,
  ).run(
    item.id,
    workspaceId,
    r.name,
    creator,
    r.tier,
    item.scope,
    r.active_version,
    r.last_synthesized_at,
    r.human_until,
    r.compare?.a ?? null,
    r.compare?.b ?? null,
    r.compare?.split ?? null,
    r.compare?.since ?? null,
    item.created_at,
    item.updated_at,
  );
}

function applyVersion(db: Db, workspaceId: string, item: SyncItem, r: BrainRecord): void {
  const agentId = item.file_id as string;
  const held = stmt(db, 'SELECT * FROM agent_brain_versions WHERE id = ?').get(item.id) as
    | VersionRow
    | undefined;
  const ids = JSON.stringify(r.observation_ids);
  if (held && held.brain === r.brain && held.observation_ids === ids && held.model === r.model) return;
  const agentName =
    (stmt(db, 'SELECT name FROM agents WHERE id = ?').get(agentId) as { name: string } | undefined)?.name ??
    item.label.replace(/ v\d+$/, '');
  throughGate(db, () => {
    if (held) {
      // The server kept another synthesis of this number (the first it accepted): this replica's
      // own goes, and what only it read waits for the next synthesis.
      stmt(
        db,
        `UPDATE observations SET synthesized_at = NULL, synthesized_version = NULL
         WHERE agent_id = ? AND synthesized_version = ?`,
      ).run(agentId, held.number);
      stmt(db, 'DELETE FROM agent_brain_versions WHERE id = ?').run(item.id);
    }
    stmt(
      db,
      `INSERT INTO agent_brain_versions (id, workspace_id, agent_id, agent, number, parent, brain, observation_ids,
         model, input_tokens, output_tokens, cached_tokens, cost_usd, created_at, created_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      item.id,
      workspaceId,
      agentId,
      agentName,
      r.number,
      r.parent,
      r.brain,
      ids,
      r.model,
      r.input_tokens,
      r.output_tokens,
      r.cached_tokens,
      r.cost_usd,
      r.created_at,
      r.created_by,
    );
    // The agent's own observations it read are synthesized (people's never are, [G4]).
    const mark = stmt(
      db,
      `UPDATE observations SET synthesized_at = ?, synthesized_version = ?
       WHERE id = ? AND agent_id = ? AND synthesized_at IS NULL`,
    );
    for (const id of r.observation_ids) mark.run(r.created_at, r.number, id, agentId);
  });
}

function applyObservation(db: Db, workspaceId: string, item: SyncItem, r: ObservationRecord): void {
  if (stmt(db, 'SELECT 1 FROM observations WHERE id = ?').get(item.id)) return; // content never changes
  // Read already by a version held here: it arrives synthesized.
  const readBy = item.file_id
    ? (stmt(
        db,
        `SELECT number, created_at FROM agent_brain_versions
         WHERE agent_id = ? AND EXISTS (SELECT 1 FROM json_each(observation_ids) WHERE value = ?)
         ORDER BY number LIMIT 1`,
      ).get(item.file_id, item.id) as { number: number; created_at: string } | undefined)
    : undefined;
  stmt(
    db,
    `INSERT INTO observations (id, workspace_id, agent, agent_id, key, type, text, payload, importance, scope, user_id,
       run_id, created_at, synthesized_at, synthesized_version)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    item.id,
    workspaceId,
    r.agent,
    item.file_id,
    r.key,
    r.type,
    r.text,
    r.payload,
    r.importance,
    item.scope,
    r.user_id,
    r.run_id,
    r.created_at,
    readBy?.created_at ?? null,
    readBy?.number ?? null,
  );
}

/** Removes an evicted (or, revoked, received) agent record; an agent takes its versions with it. */
export function evictAgentRecord(db: Db, id: string): boolean {
  const kind = agentRecordKindOf(id);
  return throughGate(db, () => {
    if (kind === 'agent') {
      const versions = stmt(db, 'SELECT id FROM agent_brain_versions WHERE agent_id = ?').all(id) as {
        id: string;
      }[];
      for (const v of versions) forgetSyncOf(db, v.id);
      stmt(db, 'DELETE FROM agent_brain_versions WHERE agent_id = ?').run(id);
      return stmt(db, 'DELETE FROM agents WHERE id = ?').run(id).changes > 0;
    }
    if (kind === 'brain')
      return stmt(db, 'DELETE FROM agent_brain_versions WHERE id = ?').run(id).changes > 0;
    if (kind === 'observation') return stmt(db, 'DELETE FROM observations WHERE id = ?').run(id).changes > 0;
    return false;
  });
}

function forgetSyncOf(db: Db, id: string): void {
  for (const table of ['sync_versions', 'sync_outbox', 'sync_changes', 'sync_received'])
    stmt(db, `DELETE FROM ${table} WHERE kind = 'item' AND ref = ?`).run(id);
}

/** Sends every version of the agent again (its scope changed: they travel in it), while connected. */
export function resendVersions(db: Db, agentId: string): void {
  if (
    (stmt(db, 'SELECT server FROM sync_state WHERE id = 1').get() as { server: string | null }).server ===
    null
  )
    return;
  stmt(
    db,
    `INSERT OR REPLACE INTO sync_changes (kind, ref, changed_ms)
     SELECT 'item', id, CAST(unixepoch('subsec') * 1000 AS INTEGER) FROM agent_brain_versions WHERE agent_id = ?`,
  ).run(agentId);
}

/** Joining a server sends every agent, version and observation (in that order of kind, by the outbox). */
export function recordAllAgentRecords(db: Db): void {
  for (const table of ['agents', 'agent_brain_versions', 'observations'])
    stmt(
      db,
      `INSERT OR REPLACE INTO sync_changes (kind, ref, changed_ms)
       SELECT 'item', id, CAST(unixepoch('subsec') * 1000 AS INTEGER) FROM ${table}`,
    ).run();
}
