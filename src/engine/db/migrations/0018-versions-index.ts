/**
 * - A source's earlier versions are found by `superseded_by` (docs/FACTS.md [K16]): on every fact
 *   citation (how many versions its source has), every move and every erase. Retired sections
 *   point at their successor the same way.
 * - Observations stay append-only for every surface (docs/AGENTS.md [G1]), but joining a server
 *   re-keys the replica (docs/SYNC_SPEC.md [C8]): the workspace, the member and their user scope
 *   change under every row, observations included. The content trigger now stands aside while the
 *   one-row gate is open, which only re-keying and pruning open inside their own transaction.
 */
export const sql = `
CREATE INDEX items_superseded_by ON items (superseded_by) WHERE superseded_by IS NOT NULL;

DROP TRIGGER observations_content_immutable;
CREATE TRIGGER observations_content_immutable
BEFORE UPDATE ON observations
WHEN (SELECT open FROM observation_prune_gate WHERE id = 1) IS NOT 1 AND (
  NEW.id IS NOT OLD.id OR NEW.workspace_id IS NOT OLD.workspace_id OR NEW.agent IS NOT OLD.agent
  OR NEW.type IS NOT OLD.type OR NEW.text IS NOT OLD.text OR NEW.payload IS NOT OLD.payload
  OR NEW.importance IS NOT OLD.importance OR NEW.scope IS NOT OLD.scope OR NEW.user_id IS NOT OLD.user_id
  OR NEW.run_id IS NOT OLD.run_id OR NEW.created_at IS NOT OLD.created_at)
BEGIN
  SELECT RAISE(ABORT, 'observations are append-only: their content cannot change');
END;
`;
