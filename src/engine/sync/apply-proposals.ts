/**
 * Applying pulled review proposals ([S20]–[S23] in docs/SYNC_SPEC.md).
 *
 * - `proposal.upsert` makes the proposal here, pending, if this replica does not have it (a
 *   proposal is created once; its creation never changes what a replica already decided). The
 *   run it came from is kept with it (`run_info`) for the inbox card.
 * - `proposal.decide` is the server's decision: the server accepts one decision per proposal, so a
 *   pulled decision is *the* decision. A pending proposal takes it. A proposal this replica
 *   decided itself with another op (its decision lost the race at the server and was refused)
 *   takes it too: the server's order wins. A note the local approval wrote is retired: the winner
 *   kept none (a rejection), or wrote its own, in the winner's namespace ([S25]), which arrives as
 *   an item of its own. The retirement is recorded for the outbox (the triggers are quiet while
 *   applying), and the overruling is logged for the user.
 * - A decision that arrives before its proposal (out-of-order delivery) waits in
 *   sync_early_decisions and is applied when the proposal arrives.
 */
import type { Op } from '#shared/sync/protocol.ts';
import { type Db, stmt } from '../db/driver.ts';
import { retireFile } from '../knowledge/retire.ts';
import { logEvent, type Surface } from '../telemetry.ts';
import { getVersion, setVersion } from './outbox.ts';
import { getProposalRow, type ProposalRow } from './proposals.ts';

type Create = Extract<Op, { kind: 'proposal.upsert' }>;
type Decide = Extract<Op, { kind: 'proposal.decide' }>;

export type ProposalContext = { db: Db; workspaceId: string; surface: Surface };

/** A pulled proposal; true when it is new here. */
export function applyProposalCreate(ctx: ProposalContext, op: Create): boolean {
  const { db } = ctx;
  const p = op.proposal;
  if (getProposalRow(db, p.id)) return false;
  stmt(
    db,
    `INSERT INTO proposals (id, run_id, ordinal, user_id, kind, label, body, scope, confidence, sensitive,
       sensitive_reason, detected, decision, reason, state, created_at, run_info)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'review', ?, 'pending', ?, ?)`,
  ).run(
    p.id,
    p.run_id,
    p.ordinal,
    p.user_id,
    p.kind,
    p.label,
    p.body,
    p.scope,
    p.confidence,
    p.sensitive,
    p.sensitive_reason,
    p.detected,
    p.reason,
    p.created_at,
    p.run ? JSON.stringify(p.run) : null,
  );
  stmt(db, "INSERT OR IGNORE INTO sync_received (kind, ref) VALUES ('proposal', ?)").run(p.id);
  const early = stmt(db, 'SELECT actor, body FROM sync_early_decisions WHERE proposal_id = ?').get(p.id) as
    | { actor: string; body: string }
    | undefined;
  if (early) {
    stmt(db, 'DELETE FROM sync_early_decisions WHERE proposal_id = ?').run(p.id);
    applyProposalDecision(ctx, JSON.parse(early.body) as Decide, early.actor);
  }
  return true;
}

function sameDecision(row: ProposalRow, op: Decide, actor: string): boolean {
  return (
    row.state === op.decision &&
    row.label === op.label &&
    row.body === op.body &&
    row.decided_by === actor &&
    (row.state === 'approved' ? row.item_id === op.itemId : row.reject_reason === op.reason)
  );
}

/** The server's decision of a proposal, by `actor` (the server names who pushed it); true when it changed something. */
export function applyProposalDecision(ctx: ProposalContext, op: Decide, actor: string): boolean {
  const { db } = ctx;
  const row = getProposalRow(db, op.proposalId);
  if (!row) {
    // The first delivery is the one the server accepted; a repeat of it changes nothing.
    stmt(db, 'INSERT OR IGNORE INTO sync_early_decisions (proposal_id, actor, body) VALUES (?, ?, ?)').run(
      op.proposalId,
      actor,
      JSON.stringify(op),
    );
    return false;
  }
  if (row.decision !== 'review') return false; // a local log, never synced
  if (getVersion(db, 'decide', row.id)?.opId === op.id) return false; // already here (ours, or delivered before)
  setVersion(db, 'decide', row.id, op.hlc, op.id);
  // A local decision not sent yet would be refused: it need not travel.
  stmt(db, "DELETE FROM sync_outbox WHERE kind = 'decide' AND ref = ?").run(row.id);
  stmt(db, "DELETE FROM sync_changes WHERE kind = 'decide' AND ref = ?").run(row.id);
  if (row.state !== 'pending' && sameDecision(row, op, actor)) return false;
  stmt(
    db,
    `UPDATE proposals SET state = ?, label = ?, body = ?, edited = ?, item_id = ?, decided_by = ?, decided_at = ?,
       reject_reason = ? WHERE id = ?`,
  ).run(
    op.decision,
    op.label,
    op.body,
    op.edited ? 1 : 0,
    op.itemId,
    actor,
    op.decidedAt,
    op.decision === 'rejected' ? op.reason : null,
    row.id,
  );
  if (row.state === 'approved' || row.state === 'rejected') overruled(ctx, row, op, actor);
  return true;
}

/**
 * This replica's own decision lost to `op`: a note its approval wrote is retired (the winner's
 * note, in the winner's namespace, arrives as an item of its own, [S25]), and the user is told.
 */
function overruled(ctx: ProposalContext, local: ProposalRow, op: Decide, actor: string): void {
  const { db } = ctx;
  let noteChange: 'retired' | null = null;
  if (local.state === 'approved' && local.item_id && local.item_id !== op.itemId) {
    if (retireFile(db, local.item_id)) {
      recordItemChange(db, local.item_id);
      noteChange = 'retired';
    }
  }
  const me = (stmt(db, 'SELECT user_id FROM sync_state WHERE id = 1').get() as { user_id: string | null })
    .user_id;
  const what = local.state === 'approved' ? 'approval' : 'rejection';
  const noteSaid = noteChange === 'retired' ? '; its note was retired' : '';
  logEvent(db, ctx.surface, me ?? local.decided_by ?? actor, 'inbox.decision.overruled', {
    proposal: local.id,
    run: local.run_id,
    scope: local.scope,
    local: { decision: local.state, by: local.decided_by, item: local.item_id },
    winner: { decision: op.decision, by: actor, item: op.itemId },
    note: noteChange,
    summary: `the ${what} of "${local.label.slice(0, 60)}" by ${local.decided_by ?? 'this replica'} was overruled: ${actor} had ${op.decision} it first${noteSaid}`,
  });
}

/** Changes made while applying are not seen by the triggers: the outbox is told directly. */
function recordItemChange(db: Db, id: string): void {
  stmt(db, "DELETE FROM sync_changes WHERE kind = 'item' AND ref = ?").run(id);
  stmt(db, "INSERT INTO sync_changes (kind, ref, changed_ms) VALUES ('item', ?, ?)").run(id, Date.now());
}

/** A proposal this user may no longer see leaves the replica, with whatever of it was waiting to go. */
export function evictProposal(db: Db, id: string): boolean {
  stmt(db, "DELETE FROM sync_outbox WHERE kind IN ('proposal', 'decide') AND ref = ?").run(id);
  stmt(db, "DELETE FROM sync_changes WHERE kind IN ('proposal', 'decide') AND ref = ?").run(id);
  stmt(db, "DELETE FROM sync_versions WHERE kind IN ('proposal', 'decide') AND ref = ?").run(id);
  stmt(db, 'DELETE FROM sync_early_decisions WHERE proposal_id = ?').run(id);
  stmt(db, "DELETE FROM sync_received WHERE kind = 'proposal' AND ref = ?").run(id);
  return stmt(db, "DELETE FROM proposals WHERE id = ? AND decision = 'review'").run(id).changes > 0;
}
