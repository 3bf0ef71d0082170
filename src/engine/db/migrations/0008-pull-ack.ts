/**
 * The id of the last pulled page this replica committed, stored with the page and the cursor in
 * one transaction and sent as `ack` on the next pull ([S19] in docs/SYNC_SPEC.md).
 */
export const sql = `
ALTER TABLE sync_state ADD COLUMN pull_page TEXT;
`;
