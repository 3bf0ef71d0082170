/**
 * One push batch as the checks see it (docs/SYNC_SPEC.md [S3]–[S4], [S20]–[S28]): the actor and
 * what they may see, the current state of everything the batch names (merged with the batch as it
 * is decided), the blobs the actor holds or can read, and what the batch wrote, to be numbered.
 */
import type { Op } from '#shared/sync/protocol.ts';
import type { Actor } from '../auth.ts';
import { readableBlobs, uploadedBy } from '../blobs/uploads.ts';
import type { Queryable } from '../db/types.ts';
import { visibleScopes } from '../scopes.ts';
import { getWorkspace } from '../workspace.ts';
import type { HeldRecords } from './agent-records.ts';
import type { AuthorityContext } from './authority.ts';
import { type EraseContext, loadEraseContext } from './erase.ts';
import {
  type EdgeState,
  type ItemState,
  loadEdges,
  loadItems,
  loadProposals,
  type ProposalState,
} from './state.ts';

export type Batch = AuthorityContext &
  EraseContext & {
    edges: Map<string, EdgeState>;
    /** States this batch wrote, by op id, to receive their sequence numbers. */
    written: Map<string, ItemState | EdgeState>;
    proposals: Map<string, ProposalState>;
    /** Moves refused because a newer change of their item is here: op id -> that change's hlc ([S24]). */
    stale: Map<string, string>;
    /** Proposals this batch created or decided, by op id, with the seq field the op fills. */
    proposalWrites: Map<string, { state: ProposalState; field: 'createdSeq' | 'decidedSeq' }>;
    /** What the server holds of the versions and observations the batch names ([S37]). */
    heldRecords: HeldRecords;
    at: string;
  };

/** Reads what the batch's checks need: the current state of what it names, and the actor's blobs. */
/** `ack`: the last pull page the device says it committed ([S36]). */
export async function loadBatch(
  tx: Queryable,
  actor: Actor,
  ops: readonly Op[],
  now: Date,
  ack: string | null = null,
): Promise<Batch> {
  const itemIds = new Set<string>();
  const edgeIds = new Set<string>();
  const proposalIds = new Set<string>();
  const blobs = new Set<string>();
  for (const op of ops) {
    if (op.kind === 'proposal.upsert') proposalIds.add(op.proposal.id);
    if (op.kind === 'proposal.decide') proposalIds.add(op.proposalId);
    if (op.kind === 'item.upsert') {
      itemIds.add(op.item.id);
      if (op.item.file_id) itemIds.add(op.item.file_id);
      if (op.item.superseded_by) itemIds.add(op.item.superseded_by);
      if (op.item.blob) blobs.add(op.item.blob);
    }
    if (op.kind === 'edge.upsert') {
      edgeIds.add(op.edge.id);
      itemIds.add(op.edge.from_id);
      itemIds.add(op.edge.to_id);
    }
    if (op.kind === 'item.erase') itemIds.add(op.itemId);
  }
  const items = await loadItems(tx, [...itemIds]);
  // The files of sections an edge names (SUPERSEDES may carry its file's origin, [S26]).
  const files = [...items.values()].map((i) => i.fileId).filter((f): f is string => !!f && !items.has(f));
  for (const [id, state] of await loadItems(tx, files)) items.set(id, state);
  const edges = await loadEdges(tx, [...edgeIds]);
  const erase = await loadEraseContext(tx, actor.deviceId, ack, ops, itemIds, items, edges);
  const visible = await visibleScopes(tx, actor.user);
  const scopes = new Map<string, Set<string>>();
  return {
    ...erase,
    actor,
    workspaceId: (await getWorkspace(tx)).id,
    nowMs: now.getTime(),
    visible: new Set(visible),
    items,
    uploaded: await uploadedBy(tx, actor.user, [...blobs]),
    readable: await readableBlobs(tx, visible, [...blobs]),
    async scopesOf(user) {
      const known = scopes.get(user);
      if (known) return known;
      const seen = new Set(await visibleScopes(tx, user));
      scopes.set(user, seen);
      return seen;
    },
    edges,
    written: new Map(),
    stale: new Map(),
    proposals: await loadProposals(tx, [...proposalIds]),
    proposalWrites: new Map(),
    heldRecords: new Map(),
    at: now.toISOString(),
  };
}
