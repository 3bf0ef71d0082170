/**
 * [G1] as a property, on a real SQLite file: over random members, team memberships and
 * observations in any scope (the user scope today; team and org scopes once an agent's brain is
 * shared), a reader lists exactly the observations in the scopes they can see, newest first, and
 * the total counts the same set. Seeded: the seed is printed on failure; rerun one with
 * OBSERVATION_PROPERTY_SEED=<seed>.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { observationId } from '../ids.ts';
import { visibleScopes } from '../scope.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { listObservations } from './observations.ts';

const USERS = ['u1', 'u2', 'u3'] as const;
const TEAMS = ['A', 'B'] as const;
const SCOPES = ['org', 'team:A', 'team:B', 'user:u1', 'user:u2', 'user:u3'];

type Row = { by: number; scope: number; minute: number; importance: number };

const rowArb: fc.Arbitrary<Row> = fc.record({
  by: fc.nat(2),
  scope: fc.nat(5),
  minute: fc.nat(59),
  importance: fc.integer({ min: 0, max: 10 }).map((n) => n / 10),
});
const membershipArb = fc.array(fc.tuple(fc.nat(2), fc.nat(1)), { maxLength: 4 });

let ws: TestWorkspace;
let admin: Engine;

beforeAll(() => {
  ws = createTestWorkspace();
  admin = ws.open();
  // The teams exist (memberships are each run's own).
  for (const u of USERS) admin.addMember(u, [...TEAMS]);
});
afterAll(async () => {
  await ws.cleanup();
});

function reset(): void {
  const { db } = admin;
  db.transaction(() => {
    db.prepare('UPDATE observation_prune_gate SET open = 1 WHERE id = 1').run();
    db.prepare('DELETE FROM observations').run();
    db.prepare('UPDATE observation_prune_gate SET open = 0 WHERE id = 1').run();
    db.prepare('DELETE FROM team_members').run();
  })();
}

it('[G1] a reader lists exactly the observations in scopes they can see', () => {
  const seed = Number(process.env.OBSERVATION_PROPERTY_SEED ?? Date.now() % 2 ** 31);
  const insert = admin.db.prepare(
    `INSERT INTO observations (id, workspace_id, agent, type, text, importance, scope, user_id, run_id, created_at)
     VALUES (?, ?, 'coder', 'gotcha', ?, ?, ?, ?, NULL, ?)`,
  );
  const property = fc.property(
    fc.array(rowArb, { maxLength: 12 }),
    membershipArb,
    fc.nat(2),
    (rows, teams, r) => {
      reset();
      for (const [u, t] of teams)
        admin.db
          .prepare('INSERT OR IGNORE INTO team_members (team_id, user_id) VALUES (?, ?)')
          .run(TEAMS[t], USERS[u]);
      const made = rows.map((row, i) => {
        const user = USERS[row.by] as string;
        const at = `2026-12-01T10:${String(row.minute).padStart(2, '0')}:00.000Z`;
        const scope = SCOPES[row.scope] as string;
        insert.run(
          observationId(admin.workspaceId, user),
          admin.workspaceId,
          `o${i}`,
          row.importance,
          scope,
          user,
          at,
        );
        return { text: `o${i}`, scope, at, i };
      });
      const reader = USERS[r] as string;
      const visible = visibleScopes(admin.db, reader);
      const listed = listObservations(admin.db, admin.workspaceId, visible, { limit: 200 });
      const expected = made
        .filter((m) => visible.includes(m.scope))
        .sort((a, b) => (a.at === b.at ? b.i - a.i : a.at < b.at ? 1 : -1))
        .map((m) => m.text);
      expect(listed.observations.map((o) => o.text)).toEqual(expected);
      expect(listed.total).toBe(expected.length);
      for (const o of listed.observations) expect(visible).toContain(o.scope);
    },
  );
  fc.assert(property, { seed, numRuns: 60, verbose: true });
});
