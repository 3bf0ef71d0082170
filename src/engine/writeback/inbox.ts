/**
 * The review inbox: proposals the gate sent to review, decided by a person.
 *
 * Who decides ([W3] in docs/PRODUCT.md): a proposal in a user scope only by that user; team and org
 * proposals by workspace admins. Who is an admin: once the replica is connected to a workspace
 * server (src/engine/sync), the member the server says is an admin; before that, a local
 * workspace has one person, the local user, who is its admin. Decisions are scope-checked reads
 * too: nobody sees a proposal in a scope they cannot see.
 *
 * Approval writes a note at the stored scope (upsertNote), with origin actor = the approver,
 * source = writeback, run = the run the proposal came from, so the note traces back to the run.
 * The note's source key is the proposal's, so approving twice cannot make two notes. While
 * connected, the note syncs like any item (the sync triggers record it), and so do review
 * proposals and their decisions (src/engine/sync): a proposal pulled from another replica carries
 * the run it came from (`run_info`), shown instead of any local run of the same name.
 */
import type { InboxView, ProposalView } from '#shared/api/writeback-types.ts';
import { AppError } from '#shared/errors.ts';
import { firstLocalUser } from '../acting-as.ts';
import { type Db, writeTx } from '../db/driver.ts';
import { upsertNote } from '../knowledge/notes.ts';
import { canSee, visibleScopes } from '../scope.ts';
import type { ProposalRow } from '../sync/proposals.ts';
import { readState } from '../sync/state.ts';
import { logEvent, type Surface } from '../telemetry.ts';

/** A proposal with the run it came from, when this replica holds that run. */
type Row = ProposalRow & {
  r_agent: string | null;
  r_status: string | null;
  r_user: string | null;
  r_ended: string | null;
  r_work: string | null;
};

/** The run as it arrived with a pulled proposal (sync): the `runs` row is on another replica. */
type RunInfo = { agent: string; status: string; user: string; ended_at: string; work_products: string };

function runView(r: Row): ProposalView['run'] {
  // A pulled proposal's own run info wins: a run here may merely share its name.
  if (r.r_agent !== null && !r.run_info) {
    return {
      id: r.run_id,
      agent: r.r_agent,
      status: r.r_status ?? '',
      user: r.r_user ?? '',
      endedAt: r.r_ended ?? '',
      excerpt: excerpt(r.r_work ?? '', r.body),
    };
  }
  if (!r.run_info) return null;
  const run = JSON.parse(r.run_info) as RunInfo;
  return {
    id: r.run_id,
    agent: run.agent,
    status: run.status,
    user: run.user,
    endedAt: run.ended_at,
    excerpt: excerpt(run.work_products, r.body),
  };
}

const EXCERPT_CHARS = 600;

export function isAdmin(db: Db, user: string): boolean {
  const state = readState(db);
  if (state.server) return state.user_id === user && state.is_admin === 1;
  // Not connected: the workspace's first local user, as for acting as others (src/engine/acting-as.ts).
  return user === firstLocalUser(db);
}

function canDecide(db: Db, user: string, scope: string): boolean {
  if (!canSee(visibleScopes(db, user), scope)) return false;
  if (scope.startsWith('user:')) return scope === `user:${user}`;
  return isAdmin(db, user);
}

function excerpt(work: string, body: string): string {
  // The part of the work products that shares the most words with the proposal, else the start.
  const words = new Set(body.toLowerCase().match(/\p{L}{4,}/gu) ?? []);
  const paragraphs = work.split(/\n{2,}/);
  let best = paragraphs[0] ?? '';
  let bestScore = -1;
  for (const p of paragraphs) {
    const score = (p.toLowerCase().match(/\p{L}{4,}/gu) ?? []).filter((w) => words.has(w)).length;
    if (score > bestScore) {
      best = p;
      bestScore = score;
    }
  }
  return best.length > EXCERPT_CHARS ? `${best.slice(0, EXCERPT_CHARS - 1)}…` : best;
}

function toView(db: Db, user: string, r: Row): ProposalView {
  return {
    id: r.id,
    runId: r.run_id,
    kind: r.kind,
    label: r.label,
    body: r.body,
    scope: r.scope,
    confidence: r.confidence,
    sensitive: r.sensitive === 1,
    sensitiveReason: r.sensitive_reason,
    detected: JSON.parse(r.detected) as ProposalView['detected'],
    decision: r.decision,
    reason: r.reason,
    state: r.state,
    itemId: r.item_id,
    edited: r.edited === 1,
    decidedBy: r.decided_by,
    decidedAt: r.decided_at,
    rejectReason: r.reject_reason,
    createdAt: r.created_at,
    canDecide: r.state === 'pending' && canDecide(db, user, r.scope),
    run: runView(r),
  };
}

const SELECT = `SELECT p.*, r.agent AS r_agent, r.status AS r_status, r.user_id AS r_user, r.ended_at AS r_ended,
  r.work_products AS r_work FROM proposals p LEFT JOIN runs r ON r.id = p.run_id`;

/** Pending proposals the user can see, oldest first; `all` adds decided and skipped ones. */
export function listInbox(db: Db, user: string, options: { all?: boolean } = {}): InboxView {
  const scopes = JSON.stringify(visibleScopes(db, user));
  const rows = db
    .prepare(
      `${SELECT} WHERE p.scope IN (SELECT value FROM json_each(?)) AND (? = 1 OR p.state = 'pending')
       ORDER BY p.created_at, p.run_id, p.ordinal LIMIT 500`,
    )
    .all(scopes, options.all ? 1 : 0) as Row[];
  const items = rows.map((r) => toView(db, user, r));
  return { pending: items.filter((i) => i.canDecide).length, items };
}

function pendingRow(db: Db, user: string, id: string): Row {
  const row = db.prepare(`${SELECT} WHERE p.id = ?`).get(id) as Row | undefined;
  if (!row || !canSee(visibleScopes(db, user), row.scope))
    throw new AppError('not-found', `No proposal ${id}.`);
  if (row.state !== 'pending')
    throw new AppError('conflict', `Proposal ${id} is not waiting for review (${row.state}).`);
  if (!canDecide(db, user, row.scope)) {
    throw new AppError(
      'forbidden',
      row.scope.startsWith('user:')
        ? `Only ${row.scope.slice(5)} can decide a proposal in their own user scope.`
        : `Only a workspace admin can decide ${row.scope} proposals.`,
    );
  }
  return row;
}

export type Decider = { db: Db; workspaceId: string; user: string; surface: Surface };

/**
 * Whether approving this proposal as it is needs the person's confirmation first: it was flagged
 * sensitive, or a secret was found in it (a password, a key, a personal number). Once approved,
 * everyone who reads its scope reads it, and a synced workspace sends it to the server. Every
 * surface asks the same ([W5] in docs/PRODUCT.md): the app with a dialog, the CLI with
 * `--confirm-sensitive`, the HTTP API with `confirmSensitive`.
 */
function needsConfirmation(row: Row): boolean {
  return row.sensitive === 1 || (JSON.parse(row.detected) as unknown[]).length > 0;
}

export function approveProposal(
  d: Decider,
  id: string,
  edit: { body?: string; label?: string } = {},
  confirmSensitive = false,
): ProposalView {
  const body = edit.body?.trim();
  const label = edit.label?.trim();
  if (edit.body !== undefined && !body) throw new AppError('validation-failed', 'The edited body is empty.');
  if (edit.label !== undefined && !label)
    throw new AppError('validation-failed', 'The edited label is empty.');
  writeTx(d.db, () => {
    const row = pendingRow(d.db, d.user, id);
    const finalBody = body ?? row.body;
    const finalLabel = label ?? row.label;
    const edited = finalBody !== row.body || finalLabel !== row.label;
    // An edited body was just read and changed by the person approving it: not asked about again.
    if (finalBody === row.body && needsConfirmation(row) && !confirmSensitive) {
      const why = row.sensitive_reason ? ` (${row.sensitive_reason})` : '';
      throw new AppError(
        'refused',
        `Proposal ${id} was flagged sensitive${why}: once approved, everyone who can read ${row.scope} reads it. ` +
          'Approve it as it is with confirmSensitive (brain inbox approve --confirm-sensitive), or edit it first to leave the secret out.',
      );
    }
    const note = upsertNote(d.db, d.workspaceId, {
      kind: row.kind,
      label: finalLabel,
      body: finalBody,
      scope: row.scope,
      sourceKey: `writeback:${row.id}`,
      actor: d.user,
      source: 'writeback',
      run: row.run_id,
    });
    d.db
      .prepare(
        `UPDATE proposals SET state = 'approved', item_id = ?, edited = ?, label = ?, body = ?, decided_by = ?, decided_at = ?
         WHERE id = ?`,
      )
      .run(note.id, edited ? 1 : 0, finalLabel, finalBody, d.user, new Date().toISOString(), id);
    logEvent(d.db, d.surface, d.user, 'inbox.decision', {
      proposal: id,
      run: row.run_id,
      decision: 'approved',
      edited,
      item: note.id,
      scope: row.scope,
      summary: `approved${edited ? ' (edited)' : ''} "${finalLabel.slice(0, 60)}" into ${row.scope}`,
    });
  });
  return getProposal(d.db, d.user, id);
}

export function rejectProposal(d: Decider, id: string, reason: string): ProposalView {
  const why = reason.trim();
  if (!why) throw new AppError('validation-failed', 'Say why the proposal is rejected (--reason TEXT).');
  writeTx(d.db, () => {
    const row = pendingRow(d.db, d.user, id);
    d.db
      .prepare(
        `UPDATE proposals SET state = 'rejected', reject_reason = ?, decided_by = ?, decided_at = ? WHERE id = ?`,
      )
      .run(why.slice(0, 1000), d.user, new Date().toISOString(), id);
    logEvent(d.db, d.surface, d.user, 'inbox.decision', {
      proposal: id,
      run: row.run_id,
      decision: 'rejected',
      reason: why,
      scope: row.scope,
      summary: `rejected "${row.label.slice(0, 60)}": ${why.slice(0, 80)}`,
    });
  });
  return getProposal(d.db, d.user, id);
}

function getProposal(db: Db, user: string, id: string): ProposalView {
  const row = db.prepare(`${SELECT} WHERE p.id = ?`).get(id) as Row | undefined;
  if (!row || !canSee(visibleScopes(db, user), row.scope))
    throw new AppError('not-found', `No proposal ${id}.`);
  return toView(db, user, row);
}
