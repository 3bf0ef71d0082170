/**
 * Synthesis of agent brains (docs/AGENTS.md [G3], [G4], [G6]) on a real workspace file, with the
 * scripted OpenAI-compatible model (every request recorded) and an injected clock: the due rule by
 * tier and the hourly cap, the inputs and their fencing, the one-transaction write, immutability,
 * tokens and cost, the empty-output guard, failures that change nothing, rollback and diff, and two
 * connections racing for one agent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import type { ModelAccess } from '../llm/config.ts';
import { setModelSetting } from '../llm/config.ts';
import { findBoundary, splitFenced } from '../read/framing.ts';
import { snapshot } from '../testing/db-dump.ts';
import { askedIds, brainOf } from '../testing/scripted-brain.ts';
import {
  type ChatRequest,
  type ScriptedModel,
  type ScriptedReply,
  startScriptedModel,
} from '../testing/scripted-model.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { getAgent } from './agents.ts';
import { writeAgentSettings } from './config.ts';
import { observe } from './observations.ts';
import { synthesizeAgent } from './synthesize.ts';

const T0 = new Date('2026-11-02T09:00:00.000Z');
const MIN = 60_000;

let ws: TestWorkspace;
let engine: Engine;
let model: ScriptedModel;
let access: ModelAccess;
let reply: (req: ChatRequest) => ScriptedReply;
let clock: Date;

/** The observation ids a synthesis request lists, in the order it lists them. */
beforeEach(async () => {
  ws = createTestWorkspace();
  engine = ws.open();
  clock = T0;
  reply = (req) => brainOf(req);
  model = await startScriptedModel((req) => reply(req));
  await setModelSetting(engine.db, ws.home, 'model.baseUrl', model.url);
  await setModelSetting(engine.db, ws.home, 'model.name', 'scripted');
  access = { baseUrl: model.url, model: 'scripted', key: null };
});
afterEach(async () => {
  await model.close();
  await ws.cleanup();
});

function obs(agent: string | null, importance = 0.5, at = clock, type = agent ? 'gotcha' : 'human_feedback') {
  return observe(
    engine.db,
    { workspaceId: engine.workspaceId, user: engine.user, agent, run: null },
    { type, text: `${type} at ${at.toISOString()} (${importance})`, importance },
    at,
  );
}

function many(agent: string, n: number, importance = 0.5) {
  return Array.from({ length: n }, (_, i) =>
    obs(agent, importance, new Date(clock.getTime() - (n - i) * 1000)),
  );
}

/** The agent of the name (a target with no row when there is none: the claim refuses it). */
const targetOf = (e: { db: typeof engine.db; workspaceId: string }, name: string) =>
  getAgent(e.db, e.workspaceId, name) ?? { id: `a_none_${name}`, name, workspace_id: e.workspaceId };

const synth = (name: string, options: { force?: boolean; access?: ModelAccess; timeoutMs?: number } = {}) =>
  synthesizeAgent(engine.db, targetOf(engine, name), options.access ?? access, {
    user: engine.user,
    now: () => clock,
    force: options.force,
    timeoutMs: options.timeoutMs,
  });

const call = async <T>(name: string, input: unknown) =>
  (await runCommand(memberContext(engine, 'cli'), name, input)) as T;

const versions = (agent: string) =>
  engine.db
    .prepare('SELECT * FROM agent_brain_versions WHERE agent = ? ORDER BY number')
    .all(agent) as Record<string, unknown>[];

describe('[G3] the due rule', () => {
  it('[G3] a lead agent is due at 5 new observations, not 4', async () => {
    await call('agents.set', { agent: 'cmo', tier: 'lead' });
    many('cmo', 4);
    const early = await synth('cmo');
    expect(early).toMatchObject({
      state: 'skipped',
      reason: 'not due: 4 of 5 new observations for tier lead',
    });
    expect(model.requests).toHaveLength(0);
    many('cmo', 1);
    const due = await synth('cmo');
    expect(due.state).toBe('synthesized');
    expect(due.version).toMatchObject({ number: 1, parent: null });
    expect(due.version?.observationIds).toHaveLength(5);
  });

  it('[G3] the default tier needs 20 and high-volume 90; below 0.2 importance does not count', async () => {
    many('coder', 19);
    many('coder', 3, 0.19);
    expect((await synth('coder')).reason).toBe('not due: 19 of 20 new observations for tier default');
    many('coder', 1, 0.2);
    expect((await synth('coder')).state).toBe('synthesized');
    await call('agents.set', { agent: 'reviewer', tier: 'high-volume' });
    many('reviewer', 89);
    expect((await synth('reviewer')).reason).toBe('not due: 89 of 90 new observations for tier high-volume');
  });

  it('[G3] at most once an hour per agent (injected clock), and force skips both rules', async () => {
    await call('agents.set', { agent: 'cmo', tier: 'lead' });
    many('cmo', 5);
    expect((await synth('cmo')).state).toBe('synthesized');
    clock = new Date(T0.getTime() + 59 * MIN);
    many('cmo', 5);
    expect((await synth('cmo')).reason).toBe('not due: last synthesized 59 min ago (at most once an hour)');
    clock = new Date(T0.getTime() + 60 * MIN);
    const second = await synth('cmo');
    expect(second.version).toMatchObject({ number: 2, parent: 1 });
    obs('cmo');
    const forced = await synth('cmo', { force: true });
    expect(forced.version).toMatchObject({ number: 3, parent: 2 });
  });

  it('[G3] force with nothing to synthesize is refused with its reason, and changes nothing', async () => {
    await call('agents.set', { agent: 'idle', tier: 'lead' });
    const before = snapshot(engine.db);
    await expect(call('agents.synthesize', { agent: 'idle', force: true })).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringContaining('nothing to synthesize'),
    });
    expect(snapshot(engine.db)).toEqual(before);
    expect(model.requests).toHaveLength(0);
  });
});

describe('[G3] the inputs', () => {
  it('[G3] at most 50 of its own, most important then newest, none under 0.2, fenced as data', async () => {
    const low = obs('coder', 0.1);
    const older = obs('coder', 0.9, new Date(T0.getTime() - 10 * MIN));
    const newer = obs('coder', 0.9, new Date(T0.getTime() - 5 * MIN));
    many('coder', 60, 0.4);
    obs('other', 0.9);
    const out = await synth('coder', { force: true });
    const req = model.requests[0] as ChatRequest;
    const ids = askedIds(req);
    expect(ids).toHaveLength(50);
    expect(ids.slice(0, 2)).toEqual([newer.id, older.id]);
    expect(ids).not.toContain(low.id);
    expect(out.version?.observationIds).toEqual(ids);
    const system = String(req.messages[0]?.content);
    const token = findBoundary(system);
    expect(token).not.toBeNull();
    const user = String(req.messages[1]?.content);
    const { fences, outside, balanced } = splitFenced(user, token as string);
    expect(balanced).toBe(true);
    // Stored text only inside fences: the observation's text is data, never instructions.
    expect(fences.find((f) => f.attrs.id === newer.id)?.text.trim()).toBe(newer.text);
    expect(outside).not.toContain('gotcha at');
    // The fed observations are marked with the version; the rest wait for the next synthesis.
    const marked = engine.db
      .prepare('SELECT count(*) AS n FROM observations WHERE synthesized_version = 1')
      .get() as { n: number };
    expect(marked.n).toBe(50);
  });

  it("[G3] people's observations reach every agent's synthesis once, and are never marked", async () => {
    await call('agents.set', { agent: 'cmo', tier: 'lead' });
    await call('agents.set', { agent: 'cto', tier: 'lead' });
    many('cmo', 5);
    many('cto', 5);
    const human = obs(null, 0.5, new Date(T0.getTime() - MIN));
    await synth('cmo');
    await synth('cto');
    expect(model.requests).toHaveLength(2);
    for (const req of model.requests) {
      expect(askedIds(req)).toContain(human.id);
      expect(String(req.messages[1]?.content)).toContain(
        "People's observations since the last synthesis (1)",
      );
    }
    for (const agent of ['cmo', 'cto'])
      expect(JSON.parse(String(versions(agent)[0]?.observation_ids))).toContain(human.id);
    const row = engine.db.prepare('SELECT synthesized_at FROM observations WHERE id = ?').get(human.id);
    expect(row).toEqual({ synthesized_at: null });
    clock = new Date(T0.getTime() + 2 * 60 * MIN);
    obs('cmo');
    await synth('cmo', { force: true });
    expect(askedIds(model.requests[2] as ChatRequest)).not.toContain(human.id);
  });

  it('[G3] the newest strategy note goes with the inputs', async () => {
    await call('notes.add', { kind: 'strategy', label: 'Q1 strategy', body: 'Win the Lisbon market first.' });
    obs('coder');
    await synth('coder', { force: true });
    expect(String(model.requests[0]?.messages[1]?.content)).toContain('Win the Lisbon market first.');
  });

  it('[G3] an entry citing an id the synthesis was not given is dropped', async () => {
    const fed = obs('coder');
    reply = () => ({
      content: JSON.stringify({
        sections: {
          gotchas: [
            { text: 'kept', observation_ids: [fed.id] },
            { text: 'made up', observation_ids: [fed.id, 'o_00000000000000000000'] },
          ],
        },
      }),
    });
    const out = await synth('coder', { force: true });
    expect(out.dropped).toBe(1);
    const shown = await call<{ brain: { sections: Record<string, { text: string }[]> } }>('agents.show', {
      agent: 'coder',
    });
    expect(shown.brain.sections.gotchas?.map((e) => e.text)).toEqual(['kept']);
  });
});

describe('[G4] versions, tokens and cost', () => {
  it('[G4] a version cannot be updated or deleted at the database', async () => {
    obs('coder');
    await synth('coder', { force: true });
    expect(() => engine.db.prepare("UPDATE agent_brain_versions SET brain = '{}'").run()).toThrow(
      /agent brain versions are immutable/,
    );
    expect(() => engine.db.prepare('UPDATE agent_brain_versions SET cost_usd = 1').run()).toThrow(
      /immutable/,
    );
    expect(() => engine.db.prepare('DELETE FROM agent_brain_versions').run()).toThrow(
      /agent brain versions are immutable: a version cannot be deleted/,
    );
    expect(versions('coder')).toHaveLength(1);
  });

  it("[G4] tokens come from the API's usage and the cost from the price table; an unknown model costs null", async () => {
    clock = new Date(); // "this week" is the real week
    writeAgentSettings(engine.db, { prices: { scripted: { input: 3, output: 15, cached: 0.3 } } });
    reply = (req) =>
      brainOf(req, {
        prompt_tokens: 1000,
        completion_tokens: 200,
        prompt_tokens_details: { cached_tokens: 400 },
      });
    obs('coder');
    const priced = await synth('coder', { force: true });
    expect(priced.version).toMatchObject({
      model: 'scripted',
      inputTokens: 1000,
      outputTokens: 200,
      cachedTokens: 400,
      costUsd: (600 * 3 + 400 * 0.3 + 200 * 15) / 1_000_000,
    });
    obs('coder');
    const unknown = await synth('coder', { force: true, access: { ...access, model: 'no-price-model' } });
    expect(unknown.version).toMatchObject({ model: 'no-price-model', inputTokens: 1000, costUsd: null });
    reply = (req) => brainOf(req);
    obs('coder');
    const noUsage = await synth('coder', { force: true });
    expect(noUsage.version).toMatchObject({
      inputTokens: null,
      outputTokens: null,
      cachedTokens: null,
      costUsd: null,
    });
    const list = await call<{ agents: { name: string; costThisWeekUsd: number | null }[] }>(
      'agents.list',
      {},
    );
    // Two of this week's three versions have no cost: the week's is unknown, not the priced part.
    expect(list.agents.find((a) => a.name === 'coder')?.costThisWeekUsd).toBeNull();
  });

  it('[G4] the empty-output guard: an empty brain never replaces a populated one', async () => {
    obs('coder');
    await synth('coder', { force: true });
    obs('coder');
    for (const empty of [{ sections: {} }, { summary: 'all gone', sections: { gotchas: [] } }]) {
      reply = () => ({ content: JSON.stringify(empty) });
      const before = snapshot(engine.db);
      const out = await synth('coder', { force: true });
      expect(out).toMatchObject({ state: 'failed', version: null });
      expect(out.reason).toMatch(/the model's brain is empty; the populated brain v1 stays/);
      expect(snapshot(engine.db)).toEqual(before);
    }
    // Entries all citing ids it was not given leave it empty too.
    reply = () => ({
      content: JSON.stringify({
        sections: { gotchas: [{ text: 'x', observation_ids: ['o_ffffffffffffffffffff'] }] },
      }),
    });
    expect((await synth('coder', { force: true })).reason).toMatch(/empty \(1 entries cited ids/);
  });

  it('[G4] an empty brain is written when no populated brain exists yet', async () => {
    reply = () => ({ content: JSON.stringify({ sections: {} }) });
    obs('coder');
    expect((await synth('coder', { force: true })).version?.number).toBe(1);
  });

  it('[G4] an HTTP 500, a timeout, bad JSON or a reply that is no brain changes nothing', async () => {
    obs('coder');
    await synth('coder', { force: true });
    obs('coder');
    const cases: [ScriptedReply, RegExp][] = [
      [{ status: 500, error: 'upstream exploded' }, /the model failed: 500/],
      [{ hang: true }, /the model failed: .*(timed out|timeout)/i],
      [{ content: 'Sure! Here is the brain: {' }, /the model's reply is not JSON/],
      [
        { content: JSON.stringify({ sections: { gotchas: [{ text: 'no cites', observation_ids: [] }] } }) },
        /not a brain: sections.gotchas.0.observation_ids/,
      ],
      [{ content: JSON.stringify({ brain: 'prose' }) }, /not a brain/],
    ];
    for (const [scripted, why] of cases) {
      reply = () => scripted;
      const before = snapshot(engine.db);
      const out = await synth('coder', { force: true, timeoutMs: 300 });
      expect(out.state).toBe('failed');
      expect(out.reason).toMatch(why);
      expect(snapshot(engine.db)).toEqual(before);
    }
  });
});

describe('[G6] the pointer, rollback and diff', () => {
  it('[G6] rollback moves only the pointer; the next synthesis has the rolled-back version as parent', async () => {
    obs('coder');
    await synth('coder', { force: true });
    obs('coder');
    await synth('coder', { force: true });
    const rows = versions('coder');
    const back = await call('agents.rollback', { agent: 'coder', to: 1 });
    expect(back).toEqual({ agent: 'coder', activeVersion: 1, previous: 2 });
    expect(versions('coder')).toEqual(rows);
    const shown = await call<{ version: { number: number } }>('agents.show', { agent: 'coder' });
    expect(shown.version.number).toBe(1);
    await expect(call('agents.rollback', { agent: 'coder', to: 9 })).rejects.toMatchObject({
      code: 'not-found',
      message: 'agents.rollback: coder has no version 9 (versions: 1, 2).',
    });
    await expect(call('agents.rollback', { agent: 'nobody', to: 1 })).rejects.toMatchObject({
      code: 'not-found',
    });
    obs('coder');
    const next = await synth('coder', { force: true });
    expect(next.version).toMatchObject({ number: 3, parent: 1 });
    const listed = await call<{ activeVersion: number; versions: { number: number }[] }>('agents.versions', {
      agent: 'coder',
    });
    expect(listed.activeVersion).toBe(3);
    expect(listed.versions.map((v) => v.number)).toEqual([3, 2, 1]);
  });

  it('[G6] diff gives the entries added and removed per section', async () => {
    const a = obs('coder');
    reply = () => ({
      content: JSON.stringify({
        sections: {
          gotchas: [{ text: 'old gotcha', observation_ids: [a.id] }],
          decisions: [{ text: 'same', observation_ids: [a.id] }],
        },
      }),
    });
    await synth('coder', { force: true });
    const b = obs('coder');
    reply = () => ({
      content: JSON.stringify({
        sections: {
          gotchas: [{ text: 'new gotcha', observation_ids: [b.id] }],
          decisions: [{ text: 'same', observation_ids: [a.id] }],
        },
      }),
    });
    await synth('coder', { force: true });
    const diff = await call('agents.diff', { agent: 'coder', from: 1, to: 2 });
    expect(diff).toEqual({
      agent: 'coder',
      from: 1,
      to: 2,
      sections: [
        {
          section: 'gotchas',
          added: [{ text: 'new gotcha', observation_ids: [b.id] }],
          removed: [{ text: 'old gotcha', observation_ids: [a.id] }],
        },
      ],
    });
    await expect(call('agents.diff', { agent: 'coder', from: 1, to: 5 })).rejects.toMatchObject({
      code: 'not-found',
    });
  });
});

describe('[G3] the claim', () => {
  it('[G3] two connections on one file racing for one agent make one version', async () => {
    const other = ws.open();
    await call('agents.set', { agent: 'cmo', tier: 'lead' });
    many('cmo', 5);
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    reply = (req) => ({ after: held, reply: brainOf(req) as { content: string } });
    const first = synth('cmo');
    while (model.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    const second = await synthesizeAgent(other.db, targetOf(other, 'cmo'), access, {
      user: other.user,
      now: () => clock,
    });
    expect(second.state).toBe('skipped');
    expect(second.reason).toMatch(/another process is synthesizing cmo/);
    release();
    expect((await first).state).toBe('synthesized');
    const third = await synthesizeAgent(other.db, targetOf(other, 'cmo'), access, {
      user: other.user,
      now: () => clock,
    });
    expect(third.reason).toMatch(/^not due/);
    expect(versions('cmo')).toHaveLength(1);
    expect(model.requests).toHaveLength(1);
    const row = engine.db.prepare("SELECT synthesis_owner FROM agents WHERE name = 'cmo'").get();
    expect(row).toEqual({ synthesis_owner: null });
  });

  it('[G3] a claim whose lease ran out is taken over', async () => {
    obs('coder');
    engine.db
      .prepare(
        "UPDATE agents SET synthesis_owner = 'dead:1:x', synthesis_lease_until = ? WHERE name = 'coder'",
      )
      .run(Date.now() - 1000);
    expect((await synth('coder', { force: true })).state).toBe('synthesized');
  });
});
