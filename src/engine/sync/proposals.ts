/**
 * Review proposals as they travel ([S20], [S21] in docs/SYNC_SPEC.md): a proposal the gate sent
 * to review, as it was made and with the run it came from, and its decision as the deciding
 * replica made it (final label and body, the note an approval wrote, the reason of a rejection).
 */
import {
  type Op,
  RUN_WORK_MAX_CHARS,
  type SyncProposal,
  type SyncProposalRun,
} from '#shared/sync/protocol.ts';
import { type Db, stmt } from '../db/driver.ts';

/** A row of `proposals` (migration 0007). */
export type ProposalRow = {
  id: string;
  run_id: string;
  ordinal: number;
  user_id: string | null;
  kind: string;
  label: string;
  body: string;
  scope: string;
  confidence: number;
  sensitive: number;
  sensitive_reason: string | null;
  detected: string;
  decision: 'skip' | 'review' | 'write';
  reason: string;
  state: 'skipped' | 'pending' | 'written' | 'approved' | 'rejected';
  item_id: string | null;
  edited: number;
  decided_by: string | null;
  decided_at: string | null;
  reject_reason: string | null;
  created_at: string;
  run_info: string | null;
};

export function getProposalRow(db: Db, id: string): ProposalRow | undefined {
  return stmt(db, 'SELECT * FROM proposals WHERE id = ?').get(id) as ProposalRow | undefined;
}

/** The run a proposal came from: what arrived with a pulled proposal, else the local `runs` row. */
function runOf(db: Db, row: ProposalRow): SyncProposalRun | null {
  if (row.run_info) return JSON.parse(row.run_info) as SyncProposalRun;
  const run = stmt(db, 'SELECT agent, status, user_id, ended_at, work_products FROM runs WHERE id = ?').get(
    row.run_id,
  ) as
    | { agent: string; status: string; user_id: string; ended_at: string; work_products: string }
    | undefined;
  if (run) {
    return {
      agent: run.agent,
      status: run.status,
      user: run.user_id,
      ended_at: run.ended_at,
      work_products: run.work_products.slice(0, RUN_WORK_MAX_CHARS),
    };
  }
  return null;
}

/** A review proposal as it travels: as it was made (pending), with its run. */
export function syncProposalOf(db: Db, row: ProposalRow): SyncProposal {
  return {
    id: row.id,
    run_id: row.run_id,
    ordinal: row.ordinal,
    user_id: row.user_id,
    kind: row.kind,
    label: row.label,
    body: row.body,
    scope: row.scope,
    confidence: row.confidence,
    sensitive: row.sensitive === 1 ? 1 : 0,
    sensitive_reason: row.sensitive_reason,
    detected: row.detected,
    decision: 'review',
    reason: row.reason,
    created_at: row.created_at,
    run: runOf(db, row),
  };
}

/** The proposal.decide op body (without id and hlc) of a decided review proposal, or null. */
export function decisionOf(
  row: ProposalRow,
): Omit<Extract<Op, { kind: 'proposal.decide' }>, 'id' | 'hlc'> | null {
  if (row.decision !== 'review' || (row.state !== 'approved' && row.state !== 'rejected')) return null;
  return {
    kind: 'proposal.decide',
    scope: row.scope,
    proposalId: row.id,
    decision: row.state,
    reason: row.state === 'rejected' ? row.reject_reason : null,
    label: row.label,
    body: row.body,
    edited: row.edited === 1,
    itemId: row.state === 'approved' ? row.item_id : null,
    decidedAt: row.decided_at ?? row.created_at,
  };
}
