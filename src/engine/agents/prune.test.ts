/**
 * Pruning observations (docs/AGENTS.md [G5]) on a real workspace file with an injected clock: the
 * two windows at their boundaries (0.3 for synthesized ones; 0.2 and 90 days for the others), the
 * numbers from settings, the gate of [G1] closed again afterwards, and only the member's scopes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { writeAgentSettings } from './config.ts';
import { observe } from './observations.ts';
import { pruneObservations } from './prune.ts';

const NOW = new Date('2026-12-01T12:00:00.000Z');
const DAY = 86_400_000;

let ws: TestWorkspace;
let engine: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
});
afterEach(() => ws.cleanup());

function obs(importance: number, ageMs: number, synthesized: boolean): string {
  const at = new Date(NOW.getTime() - ageMs);
  const o = observe(
    engine.db,
    { workspaceId: engine.workspaceId, user: engine.user, agent: 'coder', run: null },
    { type: 'gotcha', text: `${importance} ${ageMs}`, importance },
    at,
  );
  if (synthesized)
    engine.db
      .prepare('UPDATE observations SET synthesized_at = ?, synthesized_version = 1 WHERE id = ?')
      .run(at.toISOString(), o.id);
  return o.id;
}

const left = () =>
  new Set((engine.db.prepare('SELECT id FROM observations').all() as { id: string }[]).map((r) => r.id));

describe('[G5] pruning', () => {
  it('[G5] synthesized under 0.3 go; unsynthesized under 0.2 go only after 90 days', () => {
    const s29 = obs(0.29, 0, true);
    const s30 = obs(0.3, 0, true);
    const s20 = obs(0.2, 0, true);
    const u19old = obs(0.19, 90 * DAY + 1, false);
    const u19at90 = obs(0.19, 90 * DAY, false);
    const u20old = obs(0.2, 365 * DAY, false);
    const u19new = obs(0.19, DAY, false);
    const out = pruneObservations(engine.db, engine.workspaceId, engine.user, { now: NOW });
    expect(out).toEqual({ pruned: 3, synthesized: 2, stale: 1 });
    const kept = left();
    for (const gone of [s29, s20, u19old]) expect(kept.has(gone)).toBe(false);
    for (const stays of [s30, u19at90, u20old, u19new]) expect(kept.has(stays)).toBe(true);
    // The gate of [G1] is closed again: a DELETE outside pruning is refused.
    expect(engine.db.prepare('SELECT open FROM observation_prune_gate').get()).toEqual({ open: 0 });
    expect(() => engine.db.prepare('DELETE FROM observations').run()).toThrow(/only pruning deletes them/);
  });

  it('[G5] the numbers come from settings', async () => {
    writeAgentSettings(engine.db, { pruneImportance: 0.5, minSynthesisImportance: 0.25, staleDays: 10 });
    const s40 = obs(0.4, 0, true);
    const u24 = obs(0.24, 10 * DAY + 1, false);
    const u26 = obs(0.26, 100 * DAY, false);
    const out = (await runCommand(memberContext(engine, 'cli'), 'agents.prune', {})) as { pruned: number };
    expect(out.pruned).toBe(2);
    expect([...left()]).toEqual([u26]);
    expect(left().has(s40)).toBe(false);
    expect(left().has(u24)).toBe(false);
  });

  it("[G5] only the member's own scopes are pruned", () => {
    const mine = obs(0.1, 0, true);
    engine.db
      .prepare(
        "INSERT INTO observations (id, workspace_id, agent, type, text, importance, scope, user_id, created_at, synthesized_at) VALUES ('o_x', ?, 'coder', 'gotcha', 'theirs', 0.1, 'user:someone-else', 'someone-else', ?, ?)",
      )
      .run(engine.workspaceId, NOW.toISOString(), NOW.toISOString());
    pruneObservations(engine.db, engine.workspaceId, engine.user, { now: NOW });
    expect(left().has(mine)).toBe(false);
    expect(left().has('o_x')).toBe(true);
  });
});
