/**
 * Review proposals in a push ([S20], [S21], [S9] in docs/SYNC_SPEC.md): created once by the member
 * whose run made them, decided once by whoever may decide them; every decision is audited.
 */
import type { Op } from '#shared/sync/protocol.ts';
import { audit } from '../audit.ts';
import type { Actor } from '../auth.ts';
import type { Queryable } from '../db/types.ts';
import type { Batch } from './batch.ts';
import type { ProposalState } from './state.ts';

/** [S20] A proposal is created once, in a scope its creator may write, by the op of that scope. */
export function checkProposalCreate(b: Batch, op: Extract<Op, { kind: 'proposal.upsert' }>): string | null {
  const p = op.proposal;
  if (p.scope !== op.scope) return `op scope ${op.scope} differs from the proposal's scope ${p.scope}`;
  if (!b.visible.has(op.scope)) return `${b.actor.user} cannot write in scope ${op.scope}`;
  if (b.proposals.has(p.id)) return `proposal ${p.id} already exists`;
  // [S26] A proposal is made by the member whose run it came from: the token's.
  const named = p.run ? p.run.user : p.user_id;
  if ((p.user_id !== null && p.user_id !== b.actor.user) || (named !== null && named !== b.actor.user))
    return `a proposal names its run's member: ${named ?? p.user_id} is not ${b.actor.user}`;
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

/** Who may decide a proposal of `scope` ([W3] in docs/PRODUCT.md), or why not. */
function deciderRefusal(actor: Actor, scope: string): string | null {
  if (scope.startsWith('user:')) {
    const owner = scope.slice('user:'.length);
    return owner === actor.user ? null : `only ${owner} can decide a proposal in their own user scope`;
  }
  return actor.isAdmin ? null : `only a workspace admin can decide ${scope} proposals`;
}

/** [S21] The first decision of a visible proposal, by someone entitled to it; later ones are refused. */
export function checkProposalDecide(b: Batch, op: Extract<Op, { kind: 'proposal.decide' }>): string | null {
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

/** [S9] Every decision is in the audit log, with the decider and what they decided. */
export async function auditDecisions(tx: Queryable, b: Batch, accepted: readonly { op: Op }[]) {
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
