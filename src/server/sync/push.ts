/**
 * Push: apply a batch of a device's operations, each at most once. Rules [S1]–[S9], for review
 * proposals [S20]–[S21], the authority rules [S24]–[S28] (src/server/sync/authority.ts), erasing
 * a source [S35]–[S36] (src/server/sync/erase.ts) and names of one line [S38]
 * (src/server/sync/names.ts) in docs/SYNC_SPEC.md. The whole batch runs in one transaction that first locks the sequence
 * counter, so sequence numbers are assigned (and become visible) in commit order even with
 * several server processes on one PostgreSQL: a puller never skips a number that commits later.
 */

import { nulAt } from '#shared/nul.ts';
import { isAgentRecordKind } from '#shared/sync/agent-records.ts';
import type { Op, PushResponse } from '#shared/sync/protocol.ts';
import { audit } from '../audit.ts';
import type { Actor } from '../auth.ts';
import type { BlobStore } from '../blobs/store.ts';
import { DEFAULT_BLOB_GRACE_MS, deleteUnreferencedBytes } from '../blobs/uploads.ts';
import type { Db, Queryable } from '../db/types.ts';
import { narrowestScope } from '../scopes.ts';
import { agentRecordRefusal, loadHeldRecords, unlinkable } from './agent-records.ts';
import {
  blobRefusal,
  clockRefusal,
  edgeIdRefusal,
  edgeOriginRefusal,
  idRefusal,
  moveRefusal,
  namespaceFor,
  originRefusal,
  shapeRefusal,
} from './authority.ts';
import { type Batch, loadBatch } from './batch.ts';
import { bodyHash, canonicalJson, isNewer } from './canonical.ts';
import { applyErasures, checkErase, holdRefusedErasures } from './erase.ts';
import { nameRefusal } from './names.ts';
import { auditDecisions, checkProposalCreate, checkProposalDecide } from './push-proposals.ts';
import { type EdgeState, type ItemState, mergeState, saveEdges, saveItems, saveProposals } from './state.ts';

type Prepared = { op: Op; body: string; hash: string };
type Outcome =
  | { status: 'known'; seq: number }
  | { status: 'new'; seq: number }
  | { status: 'same-as'; index: number }
  | { status: 'refused'; reason: string };

export const REPLAYED = 'replayed id with a different body';

function entityOf(op: Op): string {
  if (op.kind === 'item.upsert') return op.item.id;
  if (op.kind === 'edge.upsert') return op.edge.id;
  if (op.kind === 'proposal.upsert') return op.proposal.id;
  if (op.kind === 'item.erase') return op.itemId;
  return op.proposalId;
}

async function checkItem(b: Batch, op: Extract<Op, { kind: 'item.upsert' }>): Promise<string | null> {
  const { item } = op;
  if (item.scope !== op.scope) return `op scope ${op.scope} differs from the item's scope ${item.scope}`;
  if (!b.visible.has(op.scope)) return `${b.actor.user} cannot write in scope ${op.scope}`;
  const current = b.items.get(item.id);
  const namespace = namespaceFor(b, item, current);
  const badId = idRefusal(b, item, namespace);
  if (badId) return badId;
  // [S36] A device that still owes an erase writes no part of it, nor a version of the erased
  // source (either would bring its text back); it is sent the erase.
  const erased = b.erased.get(item.id) ?? (item.superseded_by ? b.erased.get(item.superseded_by) : undefined);
  if (erased?.seq === null)
    return `item ${item.id} was erased in this batch: a replica sends what it writes after an erase in the next batch`;
  if (erased) {
    b.tombstoneHits.set(erased.source, erased.seq);
    return b.erased.has(item.id)
      ? `item ${item.id} was erased: this device is sent the erase before it may write it again`
      : `item ${item.id} is superseded by ${item.superseded_by}, which was erased: this device is sent the erase first`;
  }
  const refusal =
    shapeRefusal(b, item, current) ??
    (isAgentRecordKind(item.storage_kind) ? agentRecordRefusal(b, b.heldRecords, item, current) : null);
  if (refusal) return refusal;
  // The same content under an erased id (a watched folder's next look, a device that never held
  // it) would bring the erased text back, whoever writes it. Checked after the shape, so a section
  // under a file the writer cannot see is refused alike whatever content it guesses ([S25]).
  const content = b.erasedContent.get(item.id);
  if (content !== undefined && content === (item.blob ?? bodyHash(item.body)))
    return `item ${item.id} was erased: the same content is not written again under its id`;
  // Only the actor's own namespace reaches here for an item they cannot see ([S25]).
  if (current && !b.visible.has(current.scope))
    return `item ${item.id} is in a scope ${b.actor.user} cannot write`;
  // A tree record says what its creator's repository holds: nobody else may change it ([S25]).
  if (item.storage_kind === 'tree' && current?.createdBy && current.createdBy !== b.actor.user)
    return `tree ${item.id} is ${current.createdBy}'s: only they change its record`;
  const file = item.file_id ? b.items.get(item.file_id) : undefined;
  const more =
    (await moveRefusal(b, item, current)) ??
    originRefusal(b, item.origin_actor, [
      current?.originActor,
      item.storage_kind === 'section' ? file?.originActor : null,
    ]) ??
    blobRefusal(b, item, current);
  if (more) return more;
  // A move that would lose to a newer change (made before the move was seen) is not taken as a
  // loser: its replica re-sends it stamped after that change, so a concurrent edit never undoes it.
  if (current && current.scope !== item.scope && isNewer(current, { hlc: op.hlc, opId: op.id })) {
    b.stale.set(op.id, current.hlc);
    return `stale move: a newer change of ${item.id} is on the server; this replica sends its move again`;
  }
  const state: ItemState = {
    id: item.id,
    scope: op.scope,
    hlc: op.hlc,
    opId: op.id,
    seq: 0,
    blob: item.blob,
    storageKind: item.storage_kind,
    fileId: item.file_id,
    namespace: current ? current.namespace : namespace,
    createdBy: current ? current.createdBy : b.actor.user,
    originActor: item.origin_actor,
    supersededBy: item.superseded_by,
  };
  mergeState(b.items, state);
  b.sourceKeys.set(item.id, item.source_key);
  b.written.set(op.id, state);
  return null;
}

function checkEdge(b: Batch, op: Extract<Op, { kind: 'edge.upsert' }>): string | null {
  const { edge } = op;
  if (!b.visible.has(op.scope)) return `${b.actor.user} cannot write in scope ${op.scope}`;
  const badId = edgeIdRefusal(edge);
  if (badId) return badId;
  // An end the actor cannot see is reported exactly like a missing one: no existence oracle.
  const from = b.items.get(edge.from_id);
  const to = b.items.get(edge.to_id);
  // A tree record, an agent, a version or an observation is no item a link can end at ([S25], [S37]).
  if (!from || !b.visible.has(from.scope) || unlinkable(from)) return `edge end ${edge.from_id} not found`;
  if (!to || !b.visible.has(to.scope) || unlinkable(to)) return `edge end ${edge.to_id} not found`;
  const narrowest = narrowestScope(from.scope, to.scope);
  if (narrowest === null) return 'edge ends are in scopes that cannot be compared (fails closed)';
  if (narrowest !== op.scope) return `edge scope must be ${narrowest}, the narrowest of its ends' scopes`;
  const current = b.edges.get(edge.id);
  if (current && !b.visible.has(current.scope))
    return `edge ${edge.id} is in a scope ${b.actor.user} cannot write`;
  const badOrigin = edgeOriginRefusal(b, edge, current);
  if (badOrigin) return badOrigin;
  const state: EdgeState = {
    id: edge.id,
    scope: op.scope,
    hlc: op.hlc,
    opId: op.id,
    seq: 0,
    fromId: edge.from_id,
    toId: edge.to_id,
    type: edge.type,
    createdBy: current ? current.createdBy : b.actor.user,
    originActor: edge.origin_actor,
  };
  mergeState(b.edges, state);
  b.written.set(op.id, state);
  return null;
}

async function check(b: Batch, op: Op): Promise<string | null> {
  // JSON allows an escaped NUL; PostgreSQL's text and jsonb do not, and every later read of the op
  // (an erase, above all) would fail on it.
  const nul = nulAt(op);
  if (nul) return `op.${nul} holds a NUL character (U+0000): the server stores no NUL characters`;
  // [S38] A name, a run id or an agent's name a replica prints as one line is one line.
  const name = nameRefusal(op);
  if (name) return name;
  const ahead = clockRefusal(op, b.nowMs);
  if (ahead) return ahead;
  if (op.kind === 'item.upsert') return checkItem(b, op);
  if (op.kind === 'edge.upsert') return checkEdge(b, op);
  if (op.kind === 'proposal.upsert') return checkProposalCreate(b, op);
  if (op.kind === 'item.erase') return checkErase(b, op);
  return checkProposalDecide(b, op);
}

/**
 * The order ops are checked in: a section after its file, an edge after its ends, a decision after
 * its proposal's creation; an erase in batch order with files and notes, so what a replica wrote
 * before erasing goes with it and what it wrote after is refused ([S36]).
 */
function checkRank(op: Op): number {
  // A section after its file; a version or an observation after its agent ([S37]).
  if (op.kind === 'item.upsert')
    return ['section', 'brain', 'observation'].includes(op.item.storage_kind) ? 1 : 0;
  if (op.kind === 'proposal.upsert' || op.kind === 'item.erase') return 0;
  return op.kind === 'proposal.decide' ? 2 : 3;
}

/**
 * Decides every op: decisions after creations (a replica that was offline sends both in one
 * batch) and edges last, so an edge may arrive in the same batch as its ends.
 */
async function decide(
  b: Batch,
  batch: readonly Prepared[],
  known: Map<string, { hash: string; seq: number }>,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(batch.length);
  const firstIndex = new Map<string, number>();
  const pending: number[] = [];
  batch.forEach((p, i) => {
    const stored = known.get(p.op.id);
    const earlier = firstIndex.get(p.op.id);
    if (stored)
      outcomes[i] = stored.hash === p.hash ? { status: 'known', seq: stored.seq } : refused(REPLAYED);
    else if (earlier !== undefined) {
      outcomes[i] =
        batch[earlier]?.hash === p.hash ? { status: 'same-as', index: earlier } : refused(REPLAYED);
    } else {
      firstIndex.set(p.op.id, i);
      pending.push(i);
    }
  });
  // A stable sort: within one kind, batch order.
  const rank = (i: number) => checkRank((batch[i] as Prepared).op);
  const order = [...pending].sort((x, y) => rank(x) - rank(y));
  for (const i of order) {
    const reason = await check(b, (batch[i] as Prepared).op);
    outcomes[i] = reason === null ? { status: 'new', seq: 0 } : refused(reason);
  }
  return outcomes;
}

function refused(reason: string): Outcome {
  return { status: 'refused', reason };
}

async function insertOps(tx: Queryable, actor: Actor, rows: { p: Prepared; seq: number }[], at: string) {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO ops (seq, id, actor, device_id, kind, scope, entity_id, hlc, body_hash, body, received_at)
     SELECT s, i, $3, $4, k, sc, e, h, bh, bo, $5
     FROM unnest($1::bigint[], $2::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
       AS t(s, i, k, sc, e, h, bh, bo)`,
    [
      rows.map((r) => r.seq),
      rows.map((r) => r.p.op.id),
      actor.user,
      actor.deviceId,
      at,
      rows.map((r) => r.p.op.kind),
      rows.map((r) => r.p.op.scope),
      rows.map((r) => entityOf(r.p.op)),
      rows.map((r) => r.p.op.hlc),
      rows.map((r) => r.p.hash),
      rows.map((r) => r.p.body),
    ],
  );
}

function prepare(ops: readonly Op[]): Prepared[] {
  return ops.map((op) => {
    const body = canonicalJson(op);
    return { op, body, hash: bodyHash(body) };
  });
}

async function auditScopeChanges(tx: Queryable, before: Map<string, ItemState>, after: Batch, at: string) {
  for (const [id, state] of after.items) {
    const old = before.get(id);
    if (old && old.scope !== state.scope && after.written.get(state.opId) === state) {
      await audit(tx, {
        at,
        actor: after.actor.user,
        action: 'item.scope',
        subject: id,
        details: { from: old.scope, to: state.scope, op: state.opId },
      });
    }
  }
}

export type PushOptions = {
  /** Where bytes an erase left unreferenced are deleted, once the batch has committed ([S35]). */
  blobs?: BlobStore;
  /** How long a fresh upload is kept for the push that needs it (src/server/blobs/uploads.ts). */
  graceMs?: number;
  /**
   * The last pull page the device committed ([S19]): the erases of its pending page are owed unless
   * it is this one ([S36]). Only read: a pull of another process on the device settles the page.
   */
  ack?: string | null;
};

export async function pushOps(
  db: Db,
  now: Date,
  actor: Actor,
  ops: readonly Op[],
  options: PushOptions = {},
): Promise<PushResponse> {
  const batch = prepare(ops);
  const at = now.toISOString();
  let erasedBlobs: string[] = [];
  const response = await db.transaction(async (tx) => {
    const lock = await tx.query<{ last_seq: number | string }>(
      'SELECT last_seq FROM sync_state WHERE id = 1 FOR UPDATE',
    );
    let seq = Number(lock[0]?.last_seq ?? 0);
    const knownRows = await tx.query<{ id: string; body_hash: string; seq: number | string }>(
      'SELECT id, body_hash, seq FROM ops WHERE id = ANY($1::text[])',
      [batch.map((p) => p.op.id)],
    );
    const known = new Map(knownRows.map((r) => [r.id, { hash: r.body_hash, seq: Number(r.seq) }]));
    const b = await loadBatch(tx, actor, ops, now, options.ack ?? null);
    b.heldRecords = await loadHeldRecords(tx, b, ops);
    const itemsBefore = new Map(b.items);
    const outcomes = await decide(b, batch, known);
    const inserts: { p: Prepared; seq: number }[] = [];
    outcomes.forEach((o, i) => {
      if (o.status !== 'new') return;
      o.seq = ++seq;
      const p = batch[i] as Prepared;
      inserts.push({ p, seq: o.seq });
      const state = b.written.get(p.op.id);
      if (state) state.seq = o.seq;
      const proposal = b.proposalWrites.get(p.op.id);
      if (proposal) proposal.state[proposal.field] = o.seq;
    });
    if (inserts.length > 0) {
      await insertOps(tx, actor, inserts, at);
      const wonItems = [...b.items.values()].filter((s) => b.written.get(s.opId) === s);
      const wonEdges = [...b.edges.values()].filter((s) => b.written.get(s.opId) === s);
      await saveItems(tx, wonItems);
      await saveEdges(tx, wonEdges);
      await saveProposals(tx, [...new Set([...b.proposalWrites.values()].map((w) => w.state))]);
      await auditScopeChanges(tx, itemsBefore, b, at);
      await auditDecisions(
        tx,
        b,
        inserts.map((r) => r.p),
      );
      // After the ops are in: an erase takes the ops of what it erases with it, this batch's too.
      erasedBlobs = await applyErasures(
        tx,
        b,
        at,
        options.graceMs ?? DEFAULT_BLOB_GRACE_MS,
        new Map(inserts.map((r) => [r.p.op.id, r.seq])),
      );
      await tx.query('UPDATE sync_state SET last_seq = $1 WHERE id = 1', [seq]);
      await holdWon(tx, actor.deviceId, [
        ...wonItems.map((s) => s.id),
        ...wonEdges.map((s) => s.id),
        ...[...b.proposalWrites.values()].map((w) => w.state.id),
      ]);
    }
    const refused = outcomes.flatMap((o, i) => {
      const op = (batch[i] as Prepared).op;
      return o.status === 'refused' && !b.stale.has(op.id) ? [op] : [];
    });
    await markStale(tx, actor.deviceId, refused.map(entityOf));
    await holdRefusedErasures(
      tx,
      b,
      refused.map((op) => op.id),
    );
    return respond(batch, outcomes, b.stale);
  });
  if (options.blobs) await deleteUnreferencedBytes(db, options.blobs, erasedBlobs);
  return response;
}

/**
 * [S11] What a device pushed and won, it holds: eviction reaches it whether or not the device
 * pulls it back (its own op comes back in the window, and is skipped there as already applied).
 */
async function holdWon(tx: Queryable, deviceId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(
    `INSERT INTO device_holdings (device_id, entity_id) SELECT $1, x FROM unnest($2::text[]) AS t(x)
     ON CONFLICT (device_id, entity_id) DO UPDATE SET stale = false`,
    [deviceId, [...new Set(ids)]],
  );
}

/**
 * [S34] A refused op leaves the device's copy different from the server's: its holding is marked
 * stale, so the next pull in which the user may see the id sends the winning op again ([S12]).
 * (A stale move, answered with `newer`, is sent again by the replica instead.)
 */
async function markStale(tx: Queryable, deviceId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(
    'UPDATE device_holdings SET stale = true WHERE device_id = $1 AND entity_id = ANY($2::text[])',
    [deviceId, [...new Set(ids)]],
  );
}

function respond(
  batch: readonly Prepared[],
  outcomes: readonly Outcome[],
  stale: ReadonlyMap<string, string>,
): PushResponse {
  const out: PushResponse = { accepted: [], refused: [] };
  outcomes.forEach((o, i) => {
    const id = (batch[i] as Prepared).op.id;
    const newer = stale.get(id);
    if (o.status === 'refused')
      out.refused.push(newer ? { id, reason: o.reason, newer } : { id, reason: o.reason });
    else if (o.status === 'same-as') {
      const first = outcomes[o.index];
      if (first?.status === 'refused') out.refused.push({ id, reason: first.reason });
      else if (first && first.status !== 'same-as') out.accepted.push({ id, seq: first.seq });
    } else out.accepted.push({ id, seq: o.seq });
  });
  return out;
}
