/**
 * Review proposals sync ([S20]–[S23] in docs/SYNC_SPEC.md). Proposals the gate sent to review
 * are recorded for the outbox by triggers in the transaction of the change, like items and edges
 * (only while connected, never while pulled changes are applied): a new pending review proposal
 * as a `proposal` change (sent as `proposal.upsert`), its move from pending to approved or
 * rejected as a `decide` change (sent as `proposal.decide`). Skipped proposals and those written
 * straight in stay local logs (a written one already syncs as its note).
 *
 * - sync_early_decisions: a pulled decision of a proposal this replica does not hold yet
 *   (deliveries out of order), applied when the proposal arrives.
 * (The two change kinds are in sync_changes' CHECK (0006); the run a pulled proposal came from
 * is proposals.run_info (0007).)
 */
import { record, recording } from './sql-parts.ts';

export const sql = `
CREATE TABLE sync_early_decisions (
  proposal_id TEXT PRIMARY KEY,
  actor TEXT NOT NULL,
  body TEXT NOT NULL
);

CREATE TRIGGER proposals_sync_insert AFTER INSERT ON proposals
WHEN ${recording} AND NEW.decision = 'review' AND NEW.state = 'pending'
BEGIN ${record('proposal')} END;
CREATE TRIGGER proposals_sync_decide AFTER UPDATE OF state ON proposals
WHEN ${recording} AND NEW.decision = 'review' AND OLD.state = 'pending' AND NEW.state IN ('approved', 'rejected')
BEGIN ${record('decide')} END;
`;
