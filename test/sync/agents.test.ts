/**
 * Agent brains between replicas (docs/AGENTS.md [G12], docs/SYNC_SPEC.md [S37], [C17]) with real
 * components: engines on real SQLite files, the real synthesis with the scripted OpenAI-compatible
 * model, and the real workspace server over HTTP (PGlite and PostgreSQL). Observations, versions and
 * the pointer made on one device reach the member's other device; two devices that synthesize the
 * same number converge on the server's; an agent shared with a team reaches the team with its
 * versions, and leaves a member who leaves the team.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findAgent } from '#engine/agents/agents.ts';
import { observe } from '#engine/agents/observations.ts';
import { synthesizeAgent } from '#engine/agents/synthesize.ts';
import { runCommand } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { Engine } from '#engine/engine.ts';
import type { ModelAccess } from '#engine/llm/config.ts';
import { syncNow } from '#engine/sync/index.ts';
import { brainOf } from '#engine/testing/scripted-brain.ts';
import { type ScriptedModel, startScriptedModel } from '#engine/testing/scripted-model.ts';
import { forEachBackend, useServer } from '../server/harness.ts';
import { type Replica, useReplicas } from './replicas.ts';

let model: ScriptedModel;
let access: ModelAccess;

beforeAll(async () => {
  model = await startScriptedModel((req) => brainOf(req, { prompt_tokens: 1000, completion_tokens: 200 }));
  access = { baseUrl: model.url, model: 'scripted', key: null };
});
afterAll(async () => {
  await model.close();
});

const call = async <T = Record<string, unknown>>(engine: Engine, name: string, input: unknown) =>
  (await runCommand(memberContext(engine, 'cli'), name, input)) as T;

function record(r: Replica, text: string, importance = 0.8) {
  const e = r.engine;
  return observe(
    e.db,
    { workspaceId: e.workspaceId, user: e.user, agent: 'coder', run: null },
    {
      type: 'gotcha',
      text,
      importance,
    },
  );
}

async function synthesize(r: Replica) {
  const agent = findAgent(r.engine.db, r.engine.workspaceId, r.engine.user, 'coder');
  if (!agent) throw new Error('no agent coder here');
  const out = await synthesizeAgent(r.engine.db, agent, access, { user: r.engine.user, force: true });
  if (!out.version) throw new Error(`no version: ${out.reason}`);
  return out.version.number;
}

async function settle(...replicas: Replica[]): Promise<void> {
  for (let i = 0; i < 2; i++) for (const r of replicas) await syncNow(r.engine);
}

/** What a replica holds of agent coder, to compare between replicas. */
function brainState(r: Replica) {
  const db = r.engine.db;
  const agent = findAgent(db, r.engine.workspaceId, r.engine.user, 'coder');
  if (!agent) return null;
  return {
    id: agent.id,
    scope: agent.scope,
    tier: agent.tier,
    active: agent.active_version,
    versions: db
      .prepare(
        'SELECT id, number, parent, brain, observation_ids, input_tokens FROM agent_brain_versions WHERE agent_id = ? ORDER BY number',
      )
      .all(agent.id),
    observations: db
      .prepare(
        'SELECT id, type, text, importance, scope, synthesized_version FROM observations WHERE agent_id = ? ORDER BY id',
      )
      .all(agent.id),
  };
}

const refusals = (r: Replica) =>
  r.engine.db.prepare('SELECT reason FROM sync_refused').all() as { reason: string }[];

forEachBackend('[C17] agent brains between replicas', (backend) => {
  const env = useServer(backend);
  const replica = useReplicas(env);

  it('[C17] [S37] observations, versions and the pointer made on one device reach the member’s other device', async () => {
    const laptop = await replica('ada');
    const desktop = await replica('ada');
    record(laptop, 'the build needs node 20');
    record(laptop, 'tests run with vitest');
    const v1 = await synthesize(laptop);
    await call(laptop.engine, 'agents.set', { agent: 'coder', tier: 'lead' });
    await settle(laptop, desktop);
    expect(refusals(laptop)).toEqual([]);
    const there = brainState(desktop);
    expect(there).toEqual(brainState(laptop));
    expect(there?.active).toBe(v1);
    expect(there?.tier).toBe('lead');
    expect(there?.observations).toHaveLength(2);
    // The desktop reads the same brain and builds on it: its version reaches the laptop.
    const shown = await call<{ brain: { summary: string } | null }>(desktop.engine, 'agents.show', {
      agent: 'coder',
    });
    expect(shown.brain?.summary).toBe('from 2 observations');
    record(desktop, 'lint with biome');
    const v2 = await synthesize(desktop);
    expect(v2).toBe(v1 + 1);
    await settle(desktop, laptop);
    expect(brainState(laptop)).toEqual(brainState(desktop));
    // A rollback on the laptop moves the desktop's pointer; versions stay.
    await call(laptop.engine, 'agents.rollback', { agent: 'coder', to: v1 });
    await settle(laptop, desktop);
    expect(brainState(desktop)?.active).toBe(v1);
    expect(brainState(desktop)?.versions).toHaveLength(2);
    expect(refusals(desktop)).toEqual([]);
  });

  it('[C17] [S37] two devices that synthesize the same number converge on the version the server kept first', async () => {
    const laptop = await replica('ada');
    const desktop = await replica('ada');
    record(laptop, 'first observation');
    await settle(laptop, desktop);
    // Offline from each other: both synthesize version 1.
    record(laptop, 'only the laptop saw this');
    record(desktop, 'only the desktop saw this');
    await synthesize(laptop);
    await synthesize(desktop);
    await syncNow(laptop.engine);
    await settle(desktop, laptop);
    const a = brainState(laptop);
    const b = brainState(desktop);
    expect(b?.versions).toEqual(a?.versions);
    expect(a?.versions).toHaveLength(1);
    // The laptop's version won; what only the desktop's read waits for the next synthesis there.
    const first = a?.versions[0] as { observation_ids: string };
    const kept = JSON.parse(first.observation_ids) as string[];
    const waiting = desktop.engine.db
      .prepare("SELECT id, synthesized_version FROM observations WHERE text = 'only the desktop saw this'")
      .get() as { id: string; synthesized_version: number | null };
    expect(kept).not.toContain(waiting.id);
    expect(waiting.synthesized_version).toBeNull();
    expect(b?.observations).toEqual(a?.observations);
    // The refusal of the desktop's version is reported there ([S29]) and the next synthesis builds on the winner.
    expect(refusals(desktop).some((r) => /already exists/.test(r.reason))).toBe(true);
    const v2 = await synthesize(desktop);
    expect(v2).toBe(2);
    await settle(desktop, laptop);
    expect(brainState(laptop)).toEqual(brainState(desktop));
  });

  it('[C17] [S37] an agent an admin shares with a team reaches the team with its versions, and leaves a member who leaves it', async () => {
    const ada = await replica('ada', ['eng'], { admin: true });
    const bob = await replica('bob', ['eng']);
    const cy = await replica('cy');
    record(ada, 'deploys go through the release branch');
    await synthesize(ada);
    await settle(ada, bob, cy);
    expect(brainState(bob)).toBeNull(); // ada's own agent: only she sees it
    await call(ada.engine, 'agents.share', { agent: 'coder', scope: 'team:eng' });
    await settle(ada, bob, cy);
    expect(refusals(ada)).toEqual([]);
    const shared = brainState(bob);
    expect(shared?.scope).toBe('team:eng');
    expect(shared?.versions).toEqual(brainState(ada)?.versions);
    expect(brainState(cy)).toBeNull();
    // Bob's runs of coder read the shared brain.
    const brain = await call<{ version: number | null }>(bob.engine, 'agents.show', { agent: 'coder' });
    expect(brain.version).not.toBeNull();
    // Leaving the team takes the agent and its versions away.
    await env().admin.removeFromTeam('eng', 'bob');
    await settle(bob);
    expect(brainState(bob)).toBeNull();
    expect(bob.engine.db.prepare('SELECT count(*) AS n FROM agent_brain_versions').get()).toEqual({ n: 0 });
  });
});
