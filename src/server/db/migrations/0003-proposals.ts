/**
 * Review proposals ([S20]–[S22] in docs/SYNC_SPEC.md): the current state of each proposal a
 * replica sent to the inbox. Created once (pending) by `proposal.upsert`, decided once (approved
 * or rejected) by `proposal.decide`; the scope never changes. `created_seq` and `decided_seq` are
 * the sequence numbers of those two ops, so a device that may newly see the scope can be sent
 * them again (backfill), and `decided_by` names the first decider when a later one is refused.
 */
export const migration = {
  id: '0003-proposals',
  sql: `
CREATE TABLE proposals (
  id TEXT PRIMARY KEY,
  scope TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
  created_by TEXT NOT NULL,
  created_seq BIGINT NOT NULL,
  decided_by TEXT,
  decided_at TEXT,
  decided_seq BIGINT
);
CREATE INDEX proposals_scope ON proposals (scope, created_seq);
`,
};
