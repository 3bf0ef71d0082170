/**
 * Push: apply a batch of a device's operations, each at most once. Rules [S1]–[S9] and, for
 * review proposals, [S20]–[S21] in docs/SYNC_SPEC.md. The whole batch runs in one transaction
 * that first locks the sequence counter, so sequence numbers are assigned (and become visible) in
 * commit order even with several server processes on one PostgreSQL: a puller never skips a
 * number that commits later.
 */
import type { Op, PushResponse } from '../../shared/sync/protocol.ts';
import { audit } from '../audit.ts';
import type { Actor } from '../auth.ts';
import type { Db, Queryable } from '../db/types.ts';
import { narrowestScope, visibleScopes } from '../scopes.ts';
import { bodyHash, canonicalJson } from './canonical.ts';
import {
  type EdgeState,
  type ItemState,
  loadEdges,
  loadItems,
  loadProposals,
  mergeState,
  type ProposalState,
  saveEdges,
  saveItems,
  saveProposals,
} from './state.ts';

type Prepared = { op: Op; body: string; hash: string };
type Outcome =
  | { status: 'known'; seq: number }
  | { status: 'new'; seq: number }
  | { status: 'same-as'; index: number }
  | { status: 'refused'; reason: string };

type Batch = {
  actor: Actor;
  visible: Set<string>;
  items: Map<string, ItemState>;
  edges: Map<string, EdgeState>;
  /** States this batch wrote, by op id, to receive their sequence numbers. */
  written: Map<string, ItemState | EdgeState>;
  proposals: Map<string, ProposalState>;
  /** Proposals this batch created or decided, by op id, with the seq field the op fills. */
  proposalWrites: Map<string, { state: ProposalState; field: 'createdSeq' | 'decidedSeq' }>;
  at: string;
};

export const REPLAYED = 'replayed id with a different body';

function entityOf(op: Op): string {
  if (op.kind === 'item.upsert') return op.item.id;
  if (op.kind === 'edge.upsert') return op.edge.id;
  if (op.kind === 'proposal.upsert') return op.proposal.id;
  return op.proposalId;
}

function checkItem(b: Batch, op: Extract<Op, { kind: 'item.upsert' }>): string | null {
  if (op.item.scope !== op.scope)
    return `op scope ${op.scope} differs from the item's scope ${op.item.scope}`;
  if (!b.visible.has(op.scope)) return `${b.actor.user} cannot write in scope ${op.scope}`;
  const current = b.items.get(op.item.id);
  if (current && !b.visible.has(current.scope)) {
    return `item ${op.item.id} is in a scope ${b.actor.user} cannot write`;
  }
  const state = { id: op.item.id, scope: op.scope, hlc: op.hlc, opId: op.id, seq: 0, blob: op.item.blob };
  mergeState(b.items, state);
  b.written.set(op.id, state);
  return null;
}

function checkEdge(b: Batch, op: Extract<Op, { kind: 'edge.upsert' }>): string | null {
  if (!b.visible.has(op.scope)) return `${b.actor.user} cannot write in scope ${op.scope}`;
  const current = b.edges.get(op.edge.id);
  if (current && !b.visible.has(current.scope)) {
    return `edge ${op.edge.id} is in a scope ${b.actor.user} cannot write`;
  }
  // An end the actor cannot see is reported exactly like a missing one: no existence oracle.
  const from = b.items.get(op.edge.from_id);
  const to = b.items.get(op.edge.to_id);
  if (!from || !b.visible.has(from.scope)) return `edge end ${op.edge.from_id} not found`;
  if (!to || !b.visible.has(to.scope)) return `edge end ${op.edge.to_id} not found`;
  const narrowest = narrowestScope(from.scope, to.scope);
  if (narrowest === null) return 'edge ends are in scopes that cannot be compared (fails closed)';
  if (narrowest !== op.scope) return `edge scope must be ${narrowest}, the narrowest of its ends' scopes`;
  const state = {
    id: op.edge.id,
    scope: op.scope,
    hlc: op.hlc,
    opId: op.id,
    seq: 0,
    fromId: op.edge.from_id,
    toId: op.edge.to_id,
  };
  mergeState(b.edges, state);
  b.written.set(op.id, state);
  return null;
}

/** [S20] A proposal is created once, in a scope its creator may write, by the op of that scope. */
function checkProposalCreate(b: Batch, op: Extract<Op, { kind: 'proposal.upsert' }>): string | null {
  const p = op.proposal;
  if (p.scope !== op.scope) return `op scope ${op.scope} differs from the proposal's scope ${p.scope}`;
  if (!b.visible.has(op.scope)) return `${b.actor.user} cannot write in scope ${op.scope}`;
  if (b.proposals.has(p.id)) return `proposal ${p.id} already exists`;
  const state: ProposalState = {
    id: p.id,
    scope: p.scope,
    state: 'pending',
    createdBy: b.actor.user,
    createdSeq: 0,
    decidedBy: null,
    decidedAt: null,
    decidedSeq: null,
  };
  b.proposals.set(p.id, state);
  b.proposalWrites.set(op.id, { state, field: 'createdSeq' });
  return null;
}

/** Who may decide a proposal of `scope` (DESIGN.md section 8), or why not. */
function deciderRefusal(actor: Actor, scope: string): string | null {
  if (scope.startsWith('user:')) {
    const owner = scope.slice('user:'.length);
    return owner === actor.user ? null : `only ${owner} can decide a proposal in their own user scope`;
  }
  return actor.isAdmin ? null : `only a workspace admin can decide ${scope} proposals`;
}

/** [S21] The first decision of a visible proposal, by someone entitled to it; later ones are refused. */
function checkProposalDecide(b: Batch, op: Extract<Op, { kind: 'proposal.decide' }>): string | null {
  const current = b.proposals.get(op.proposalId);
  // A proposal the actor cannot see is reported exactly like a missing one: no existence oracle.
  if (!current || !b.visible.has(current.scope)) return `proposal ${op.proposalId} not found`;
  if (op.scope !== current.scope)
    return `op scope ${op.scope} differs from the proposal's scope ${current.scope}`;
  const notAllowed = deciderRefusal(b.actor, current.scope);
  if (notAllowed) return notAllowed;
  if (current.state !== 'pending')
    return `proposal ${op.proposalId} was already ${current.state} by ${current.decidedBy ?? 'someone'}`;
  if (op.decision === 'approved' && op.itemId === null) return 'an approval names the note it wrote (itemId)';
  if (op.decision === 'rejected' && op.itemId !== null)
    return 'a rejection writes no note (itemId must be null)';
  if (op.decision === 'rejected' && !op.reason?.trim()) return 'a rejection says why (reason)';
  current.state = op.decision;
  current.decidedBy = b.actor.user;
  current.decidedAt = b.at;
  b.proposalWrites.set(op.id, { state: current, field: 'decidedSeq' });
  return null;
}

function check(b: Batch, op: Op): string | null {
  if (op.kind === 'item.upsert') return checkItem(b, op);
  if (op.kind === 'edge.upsert') return checkEdge(b, op);
  if (op.kind === 'proposal.upsert') return checkProposalCreate(b, op);
  return checkProposalDecide(b, op);
}

/** The order ops are checked in: an edge after its ends, a decision after its proposal's creation. */
const CHECK_ORDER: Record<Op['kind'], number> = {
  'item.upsert': 0,
  'proposal.upsert': 0,
  'proposal.decide': 1,
  'edge.upsert': 2,
};

/**
 * Decides every op: decisions after creations (a replica that was offline sends both in one
 * batch) and edges last, so an edge may arrive in the same batch as its ends.
 */
function decide(
  b: Batch,
  batch: readonly Prepared[],
  known: Map<string, { hash: string; seq: number }>,
): Outcome[] {
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
  const rank = (i: number) => CHECK_ORDER[(batch[i] as Prepared).op.kind];
  const order = [...pending].sort((x, y) => rank(x) - rank(y));
  for (const i of order) {
    const reason = check(b, (batch[i] as Prepared).op);
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

async function loadBatch(tx: Queryable, actor: Actor, ops: readonly Op[], at: string): Promise<Batch> {
  const itemIds = new Set<string>();
  const edgeIds = new Set<string>();
  const proposalIds = new Set<string>();
  for (const op of ops) {
    if (op.kind === 'proposal.upsert') proposalIds.add(op.proposal.id);
    if (op.kind === 'proposal.decide') proposalIds.add(op.proposalId);
    if (op.kind === 'item.upsert') itemIds.add(op.item.id);
    if (op.kind === 'edge.upsert') {
      edgeIds.add(op.edge.id);
      itemIds.add(op.edge.from_id);
      itemIds.add(op.edge.to_id);
    }
  }
  return {
    actor,
    visible: new Set(await visibleScopes(tx, actor.user)),
    items: await loadItems(tx, [...itemIds]),
    edges: await loadEdges(tx, [...edgeIds]),
    written: new Map(),
    proposals: await loadProposals(tx, [...proposalIds]),
    proposalWrites: new Map(),
    at,
  };
}

/** [S9] Every decision is in the audit log, with the decider and what they decided. */
async function auditDecisions(tx: Queryable, b: Batch, accepted: readonly Prepared[]) {
  for (const { op } of accepted) {
    if (op.kind !== 'proposal.decide') continue;
    await audit(tx, {
      at: b.at,
      actor: b.actor.user,
      action: 'proposal.decide',
      subject: op.proposalId,
      details: {
        scope: op.scope,
        decision: op.decision,
        edited: op.edited,
        item: op.itemId,
        reason: op.reason,
        op: op.id,
      },
    });
  }
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

export async function pushOps(db: Db, now: Date, actor: Actor, ops: readonly Op[]): Promise<PushResponse> {
  const batch = prepare(ops);
  const at = now.toISOString();
  return db.transaction(async (tx) => {
    const lock = await tx.query<{ last_seq: number | string }>(
      'SELECT last_seq FROM sync_state WHERE id = 1 FOR UPDATE',
    );
    let seq = Number(lock[0]?.last_seq ?? 0);
    const knownRows = await tx.query<{ id: string; body_hash: string; seq: number | string }>(
      'SELECT id, body_hash, seq FROM ops WHERE id = ANY($1::text[])',
      [batch.map((p) => p.op.id)],
    );
    const known = new Map(knownRows.map((r) => [r.id, { hash: r.body_hash, seq: Number(r.seq) }]));
    const b = await loadBatch(tx, actor, ops, at);
    const itemsBefore = new Map(b.items);
    const outcomes = decide(b, batch, known);
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
      await tx.query('UPDATE sync_state SET last_seq = $1 WHERE id = 1', [seq]);
    }
    return respond(batch, outcomes);
  });
}

function respond(batch: readonly Prepared[], outcomes: readonly Outcome[]): PushResponse {
  const out: PushResponse = { accepted: [], refused: [] };
  outcomes.forEach((o, i) => {
    const id = (batch[i] as Prepared).op.id;
    if (o.status === 'refused') out.refused.push({ id, reason: o.reason });
    else if (o.status === 'same-as') {
      const first = outcomes[o.index];
      if (first?.status === 'refused') out.refused.push({ id, reason: first.reason });
      else if (first && first.status !== 'same-as') out.accepted.push({ id, seq: first.seq });
    } else out.accepted.push({ id, seq: o.seq });
  });
  return out;
}
