/**
 * The records of agent brains in a push (docs/SYNC_SPEC.md [S37], docs/AGENTS.md [G12]): an agent,
 * a brain version and an observation travel as `item.upsert` ops of their own storage kinds, with
 * their record as JSON in `body` (src/shared/sync/agent-records.ts). On top of the checks every item
 * gets (scope, namespace, clock, origin), each kind has its own rules here: an agent's name is its
 * source key and only an admin shares it; a version follows its agent's scope and is created once;
 * an observation is its recorder's, names an agent its recorder can see, and never changes.
 */
import { agentKey, brainKey, observationKey, originUser } from '#shared/ids.ts';
import {
  type AgentRecord,
  type AgentRecordKind,
  type BrainRecord,
  isAgentRecordKind,
  type ObservationRecord,
  parseAgentRecord,
} from '#shared/sync/agent-records.ts';
import type { Op, SyncItem } from '#shared/sync/protocol.ts';
import type { Queryable } from '../db/types.ts';
import type { Batch } from './batch.ts';
import type { ItemState } from './state.ts';

/**
 * What the server holds of a version or an observation (its body and scope, to keep it unchanged)
 * and of an agent an observation hangs under (its source key, to check the name the observation
 * gives it).
 */
export type HeldRecords = Map<string, { body: string; scope: string; sourceKey: string }>;

/**
 * The held records of every version and observation the batch names and the server already holds,
 * and of every agent the batch's observations hang under: the winning ops, in one query.
 */
export async function loadHeldRecords(tx: Queryable, b: Batch, ops: readonly Op[]): Promise<HeldRecords> {
  const opIds = new Set<string>();
  for (const op of ops) {
    if (
      op.kind !== 'item.upsert' ||
      (op.item.storage_kind !== 'brain' && op.item.storage_kind !== 'observation')
    )
      continue;
    const current = b.items.get(op.item.id);
    if (current) opIds.add(current.opId);
    const agent =
      op.item.storage_kind === 'observation' && op.item.file_id ? b.items.get(op.item.file_id) : undefined;
    if (agent?.storageKind === 'agent') opIds.add(agent.opId);
  }
  const held: HeldRecords = new Map();
  if (opIds.size === 0) return held;
  const rows = await tx.query<{ body: string }>('SELECT body FROM ops WHERE id = ANY($1::text[])', [
    [...opIds],
  ]);
  for (const r of rows) {
    const op = JSON.parse(r.body) as Op;
    if (op.kind === 'item.upsert')
      held.set(op.item.id, { body: op.item.body, scope: op.item.scope, sourceKey: op.item.source_key });
  }
  return held;
}

/** True when no link may end at this item: tree records and the records of agent brains. */
export function unlinkable(state: ItemState): boolean {
  return state.storageKind === 'tree' || isAgentRecordKind(state.storageKind ?? '');
}

/** Why this agent record may not be written, or null. `current` is what the server holds of the id. */
export function agentRecordRefusal(
  b: Batch,
  held: HeldRecords,
  item: SyncItem,
  current: ItemState | undefined,
): string | null {
  const kind = item.storage_kind as AgentRecordKind;
  const parsed = parseAgentRecord(kind, item.body);
  if (!parsed.ok) return parsed.reason;
  if (item.blob !== null) return `a ${kind} record holds no blob`;
  if (item.superseded_by !== null) return `a ${kind} record supersedes nothing`;
  if (kind === 'agent') return agentRefusal(b, item, parsed.record as AgentRecord, current);
  if (kind === 'brain') return versionRefusal(b, held, item, parsed.record as BrainRecord, current);
  return observationRefusal(b, held, item, parsed.record as ObservationRecord, current);
}

function agentRefusal(b: Batch, item: SyncItem, r: AgentRecord, current: ItemState | undefined) {
  if (item.source_key !== agentKey(r.name) || item.label !== r.name)
    return `agent ${item.id}: its source key and label are its name (${agentKey(r.name)})`;
  if (item.file_id !== null) return `agent ${item.id} belongs to no file`;
  // Sharing moves a brain and what reads it: a workspace admin's decision (docs/AGENTS.md [G10]).
  // A member's new agent is made in their own user scope: created straight in a team or the org it
  // would be shared without an admin, and teammates' replicas would run it as their agent of that
  // name (docs/AGENTS.md [G12], docs/SYNC_SPEC.md [S37]).
  if (!b.actor.isAdmin && item.scope !== (current ? current.scope : `user:${b.actor.user}`))
    return `only a workspace admin can share agent ${item.id}`;
  return null;
}

/** The agent a version or an observation names, when the actor can see it (else as missing). */
function visibleAgent(b: Batch, id: string | null): ItemState | undefined {
  const agent = id ? b.items.get(id) : undefined;
  return agent && agent.storageKind === 'agent' && b.visible.has(agent.scope) ? agent : undefined;
}

function versionRefusal(
  b: Batch,
  held: HeldRecords,
  item: SyncItem,
  r: BrainRecord,
  current: ItemState | undefined,
) {
  const agent = visibleAgent(b, item.file_id);
  if (!agent) return `agent ${item.file_id ?? '(none)'} not found`;
  if (agent.scope !== item.scope)
    return `a version follows its agent: ${item.file_id} is in ${agent.scope}, not ${item.scope}`;
  if (item.source_key !== brainKey(r.number))
    return `version ${item.id}: its source key is ${brainKey(r.number)}`;
  if (r.parent !== null && r.parent >= r.number)
    return `version ${r.number} of agent ${item.file_id}: its parent must be an earlier version`;
  // Created once: the first version of a number the server accepts is the version ([G12]).
  const before = current ? held.get(item.id) : undefined;
  if (before && before.body !== item.body)
    return `version ${r.number} of agent ${item.file_id} already exists: versions never change`;
  // Its maker is the member who sends it, as for an observation (docs/SYNC_SPEC.md
  // [S26], [S37]); sent again (its agent
  // was shared) it is the body the server holds, checked when it was made.
  if (!before && r.created_by !== b.actor.user)
    return `a version is made by the member who sends it: ${b.actor.user}, not ${r.created_by}`;
  return null;
}

function observationRefusal(
  b: Batch,
  held: HeldRecords,
  item: SyncItem,
  r: ObservationRecord,
  current: ItemState | undefined,
) {
  if (item.source_key !== observationKey(r.key))
    return `observation ${item.id}: its source key is ${observationKey(r.key)}`;
  if (r.user_id !== b.actor.user || originUser(item.origin_actor) !== b.actor.user)
    return `an observation is recorded by the member who sends it: ${b.actor.user}, not ${r.user_id}`;
  if (item.file_id !== null || r.agent !== null) {
    const agent = visibleAgent(b, item.file_id);
    if (!agent || r.agent === null) return `agent ${item.file_id ?? '(none)'} not found`;
    // The agent's name is its source key: as this batch wrote it, else as the server holds it.
    const key = b.sourceKeys.get(agent.id) ?? held.get(agent.id)?.sourceKey;
    if (key !== agentKey(r.agent))
      return `observation ${item.id} names agent ${r.agent}, but ${agent.id} is agent ${key?.replace(/^agent:/, '') ?? '(unknown)'}`;
  }
  const before = current ? held.get(item.id) : undefined;
  if (before && (before.body !== item.body || before.scope !== item.scope))
    return `observation ${item.id} already exists: observations are append-only`;
  return null;
}
