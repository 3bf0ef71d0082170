/**
 * Review proposals sync ([S20]–[S23] in docs/SYNC_SPEC.md). Proposals the gate sent to review
 * are recorded for the outbox by triggers in the transaction of the change, like items and edges
 * (only while connected, never while pulled changes are applied): a new pending review proposal
 * as a `proposal` change (sent as `proposal.upsert`), its move from pending to approved or
 * rejected as a `decide` change (sent as `proposal.decide`). Skipped proposals and those written
 * straight in stay local logs (a written one already syncs as its note).
 *
 * - sync_changes gets the two new kinds. SQLite cannot alter a CHECK, so the table is rebuilt;
 *   the item and edge triggers name it, so they are dropped first and made again as in 0006.
 * - proposals.run_info: the run a pulled proposal came from (agent, status, user, ended_at, work
 *   products), JSON, for the inbox card on a replica that does not hold the run.
 * - sync_early_decisions: a pulled decision of a proposal this replica does not hold yet
 *   (deliveries out of order), applied when the proposal arrives.
 */
// The item and edge triggers are made again exactly as 0006 made them.
import { itemEdgeTriggers, record, recording } from './0006-sync.ts';

/** The triggers that record proposal changes (0011 makes them again, unchanged). */
export const proposalTriggers = `
CREATE TRIGGER proposals_sync_insert AFTER INSERT ON proposals
WHEN ${recording} AND NEW.decision = 'review' AND NEW.state = 'pending'
BEGIN ${record('proposal')} END;
CREATE TRIGGER proposals_sync_decide AFTER UPDATE OF state ON proposals
WHEN ${recording} AND NEW.decision = 'review' AND OLD.state = 'pending' AND NEW.state IN ('approved', 'rejected')
BEGIN ${record('decide')} END;
`;

export const sql = `
DROP TRIGGER items_sync_insert;
DROP TRIGGER items_sync_update;
DROP TRIGGER edges_sync_insert;
DROP TRIGGER edges_sync_update;

CREATE TABLE sync_changes_next (
  kind TEXT NOT NULL CHECK (kind IN ('item', 'edge', 'proposal', 'decide')),
  ref TEXT NOT NULL,
  changed_ms INTEGER NOT NULL,
  PRIMARY KEY (kind, ref)
);
INSERT INTO sync_changes_next (kind, ref, changed_ms) SELECT kind, ref, changed_ms FROM sync_changes;
DROP TABLE sync_changes;
ALTER TABLE sync_changes_next RENAME TO sync_changes;

${itemEdgeTriggers}
ALTER TABLE proposals ADD COLUMN run_info TEXT;

CREATE TABLE sync_early_decisions (
  proposal_id TEXT PRIMARY KEY,
  actor TEXT NOT NULL,
  body TEXT NOT NULL
);

${proposalTriggers}`;
