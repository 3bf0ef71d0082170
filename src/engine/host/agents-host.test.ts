/**
 * The agents loop of a long-lived host (src/engine/host/agents-host.ts, docs/AGENTS.md [G3], [G5]):
 * a due agent is synthesized in the background, the daily prune runs, and closing the host aborts
 * a synthesis in flight: its claim is given back and nothing is written.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureAgent } from '../agents/agents.ts';
import { observe } from '../agents/observations.ts';
import type { Engine } from '../engine.ts';
import { setModelSetting } from '../llm/config.ts';
import { snapshot } from '../testing/db-dump.ts';
import { type ScriptedModel, type ScriptedReply, startScriptedModel } from '../testing/scripted-model.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { AgentBrainWork } from './agents-host.ts';

let ws: TestWorkspace;
let engine: Engine;
let model: ScriptedModel;
let reply: () => ScriptedReply;

beforeEach(async () => {
  ws = createTestWorkspace();
  engine = ws.open();
  model = await startScriptedModel(() => reply());
  await setModelSetting(engine.db, ws.home, 'model.baseUrl', model.url);
  await setModelSetting(engine.db, ws.home, 'model.name', 'scripted');
});
afterEach(async () => {
  await model.close();
  await ws.cleanup();
});

function fiveFor(agent: string): string[] {
  const row = ensureAgent(engine.db, engine.workspaceId, agent, `user:${engine.user}`, engine.user);
  engine.db.prepare("UPDATE agents SET tier = 'lead' WHERE id = ?").run(row.id);
  return Array.from(
    { length: 5 },
    (_, i) =>
      observe(
        engine.db,
        { workspaceId: engine.workspaceId, user: engine.user, agent, run: null },
        { type: 'gotcha', text: `lesson ${i}` },
      ).id,
  );
}

const versions = () =>
  (engine.db.prepare('SELECT count(*) AS n FROM agent_brain_versions').get() as { n: number }).n;

describe('[G3] the host synthesizes due agents in the background', () => {
  it('[G3] a due agent gets its version from a kick; one not due is left alone', async () => {
    const ids = fiveFor('cmo');
    observe(
      engine.db,
      { workspaceId: engine.workspaceId, user: engine.user, agent: 'coder', run: null },
      { type: 'gotcha', text: 'only one' },
    );
    reply = () => ({
      content: JSON.stringify({ sections: { gotchas: [{ text: 'x', observation_ids: [ids[0]] }] } }),
    });
    const events: string[] = [];
    const work = new AgentBrainWork(engine, (e) => events.push(e), { pollMs: 3_600_000 });
    await work.kick();
    expect(versions()).toBe(1);
    expect(model.requests).toHaveLength(1);
    expect(events).toContain('activity.changed');
    await work.close();
  });

  it('[G3] closing the host aborts the synthesis in flight: claim given back, nothing written', async () => {
    fiveFor('cmo');
    reply = () => ({ hang: true });
    const work = new AgentBrainWork(engine, () => {}, { pollMs: 3_600_000 });
    const before = snapshot(engine.db);
    const round = work.kick();
    while (model.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    const claimed = engine.db.prepare("SELECT synthesis_owner FROM agents WHERE name = 'cmo'").get() as {
      synthesis_owner: string | null;
    };
    expect(claimed.synthesis_owner).not.toBeNull();
    await work.close();
    await round;
    expect(versions()).toBe(0);
    expect(snapshot(engine.db)).toEqual(before);
  });
});
