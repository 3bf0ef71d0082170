/**
 * Pruning observations (docs/AGENTS.md [G5]) through the gate of [G1]: inside one transaction the
 * one-row `observation_prune_gate` is opened, two windows are deleted, and the gate is closed
 * before commit (a DELETE outside an open gate is refused by the database):
 *  - synthesized observations of importance under `agents.pruneImportance` (0.3);
 *  - unsynthesized ones under `agents.minSynthesisImportance` (0.2) older than `agents.staleDays` (90).
 * So those in [0.2, 0.3) get exactly one synthesis, and the higher ones stay to influence the next.
 * Only observations in scopes the member may write are pruned. People's observations are never
 * marked synthesized (every agent reads them, [G3]): only the age window removes them.
 */
import { type Db, writeTx } from '../db/driver.ts';
import { visibleScopes } from '../scope.ts';
import { readAgentNumbers } from './config.ts';

export type PruneResult = { pruned: number; synthesized: number; stale: number };

const DAY_MS = 86_400_000;

export function pruneObservations(
  db: Db,
  workspaceId: string,
  user: string,
  options: { now?: Date } = {},
): PruneResult {
  const numbers = readAgentNumbers(db);
  const now = options.now ?? new Date();
  const staleBefore = new Date(now.getTime() - numbers.staleDays * DAY_MS).toISOString();
  const scopes = visibleScopes(db, user);
  const inScopes = `scope IN (${scopes.map(() => '?').join(', ')})`;
  return writeTx(db, () => {
    db.prepare('UPDATE observation_prune_gate SET open = 1 WHERE id = 1').run();
    try {
      const synthesized = db
        .prepare(
          `DELETE FROM observations WHERE workspace_id = ? AND ${inScopes}
             AND synthesized_at IS NOT NULL AND importance < ?`,
        )
        .run(workspaceId, ...scopes, numbers.pruneImportance).changes;
      const stale = db
        .prepare(
          `DELETE FROM observations WHERE workspace_id = ? AND ${inScopes}
             AND synthesized_at IS NULL AND importance < ? AND created_at < ?`,
        )
        .run(workspaceId, ...scopes, numbers.minSynthesisImportance, staleBefore).changes;
      // People's observations are never marked synthesized (every agent reads them): past the
      // window, those under the synthesized threshold go ([G5]).
      const human = db
        .prepare(
          `DELETE FROM observations WHERE workspace_id = ? AND ${inScopes}
             AND agent IS NULL AND importance < ? AND created_at < ?`,
        )
        .run(workspaceId, ...scopes, numbers.pruneImportance, staleBefore).changes;
      return { pruned: synthesized + stale + human, synthesized, stale: stale + human };
    } finally {
      db.prepare('UPDATE observation_prune_gate SET open = 0 WHERE id = 1').run();
    }
  });
}
