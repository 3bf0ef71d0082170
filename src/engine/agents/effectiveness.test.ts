/**
 * Effectiveness, the trend, comparison and sharing of agent brains (docs/AGENTS.md [G7]–[G10]) on a
 * real workspace file; versions are made by the real synthesis with the scripted OpenAI-compatible
 * model, runs are ended through the engine's run-end record with the version the mount rules give.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { type CommandContext, memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import type { ModelAccess } from '../llm/config.ts';
import { createFrame } from '../read/framing.ts';
import { INJECTION_TOKEN_MAX, inject } from '../search/injection.ts';
import { BRAIN_MAX_TOKENS, renderWithinBudget } from '../search/injection-render.ts';
import { brainOf } from '../testing/scripted-brain.ts';
import { type ScriptedModel, startScriptedModel } from '../testing/scripted-model.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { recordRunEnd } from '../writeback/run-end.ts';
import { getAgent } from './agents.ts';
import { writeAgentSettings } from './config.ts';
import { calculateTrend, effectiveness, mondayOf } from './effectiveness.ts';
import {
  brainBlock,
  comparedVersionFor,
  newRunMount,
  renderBrainBlock,
  serveBrain,
  versionAtRunEnd,
} from './mount.ts';
import { observe } from './observations.ts';
import { synthesizeAgent } from './synthesize.ts';

let ws: TestWorkspace;
let engine: Engine;
let model: ScriptedModel;
let access: ModelAccess;

beforeEach(async () => {
  ws = createTestWorkspace();
  engine = ws.open();
  model = await startScriptedModel((req) => brainOf(req, { prompt_tokens: 1000, completion_tokens: 200 }));
  access = { baseUrl: model.url, model: 'scripted', key: null };
});
afterEach(async () => {
  await model.close();
  await ws.cleanup();
});

const who = (run: string | null = null, agent: string | null = 'coder') => ({
  workspaceId: engine.workspaceId,
  user: engine.user,
  agent,
  run,
});

/** One more version of `coder`: an observation, then a forced synthesis. */
async function newVersion(text: string, at?: Date): Promise<number> {
  observe(engine.db, who(), { type: 'gotcha', text, importance: 0.8 }, at);
  const out = await synthesizeAgent(engine.db, getAgent(engine.db, engine.workspaceId, 'coder')!, access, {
    user: engine.user,
    force: true,
    ...(at ? { now: () => at } : {}),
  });
  if (!out.version) throw new Error(`no version: ${out.reason}`);
  return out.version.number;
}

/** Ends run `id` of coder as brain_run_end does: with the version the run would read. */
function endRun(id: string, status: 'succeeded' | 'failed' | 'blocked' | 'cancelled'): number | null {
  const read = versionAtRunEnd(
    engine.db,
    { workspaceId: engine.workspaceId, user: engine.user },
    'coder',
    id,
  );
  const brainVersion = read.version;
  recordRunEnd(engine.db, {
    run: id,
    workspaceId: engine.workspaceId,
    user: engine.user,
    agent: 'coder',
    status,
    workProducts: 'done',
    startedAt: null,
    brainVersion,
    brainAgent: read.agentId,
  });
  return brainVersion;
}

const rollback = (to: number) =>
  runCommand(memberContext(engine, 'cli'), 'agents.rollback', { agent: 'coder', to });

describe('[G8] the trend, exactly as the seed', () => {
  const v = (succeeded: number, ended: number) => ({ succeeded, ended });
  it('needs 3 versions with runs and 5 runs in all', () => {
    expect(calculateTrend([v(5, 5), v(0, 5)])).toBe('insufficient data');
    expect(calculateTrend([v(2, 2), v(0, 1), v(0, 1)])).toBe('insufficient data'); // 4 runs
    expect(calculateTrend([v(3, 3), v(0, 1), v(0, 1)])).toBe('improving'); // 5 runs
    // A version without ended runs is not one "with runs": the next ones count.
    expect(calculateTrend([v(0, 0), v(2, 2), v(0, 1), v(0, 1)])).toBe('insufficient data');
    expect(calculateTrend([])).toBe('insufficient data');
  });
  it('exactly 5 points is stable; 5.1 is improving or declining', () => {
    // 0.55 − 0.50 is 0.050000000000000044 in floating point: compared in integers, it is 5 points.
    expect(calculateTrend([v(11, 20), v(7, 10), v(10, 20)])).toBe('stable');
    expect(calculateTrend([v(10, 20), v(7, 10), v(11, 20)])).toBe('stable');
    expect(calculateTrend([v(551, 1000), v(0, 1), v(500, 1000)])).toBe('improving');
    expect(calculateTrend([v(500, 1000), v(1, 1), v(551, 1000)])).toBe('declining');
    expect(calculateTrend([v(3, 4), v(1, 2), v(3, 4)])).toBe('stable');
    // The newest against the third-most-recent: the second never decides.
    expect(calculateTrend([v(1, 2), v(0, 10), v(1, 2), v(0, 10)])).toBe('stable');
  });
});

describe('[G9] the split by run id', () => {
  it('is deterministic: the same id, the same version', () => {
    for (const id of ['run-1', 'run-2026-12-02-ab12cd34', 'x']) {
      expect(comparedVersionFor(id, 6, 7, 50)).toBe(comparedVersionFor(id, 6, 7, 50));
    }
    // The rule spelled out: the first 4 bytes of sha256(run id), big-endian, modulo 100, below split → a.
    for (const id of ['run-1', 'run-2', 'run-3', 'run-4']) {
      const n = createHash('sha256').update(id).digest().readUInt32BE(0);
      expect(comparedVersionFor(id, 6, 7, 50)).toBe(n % 100 < 50 ? 6 : 7);
    }
    const ids = Array.from({ length: 1000 }, (_, i) => `run-${i}`);
    for (const split of [50, 30, 90]) {
      const a = ids.filter((id) => comparedVersionFor(id, 6, 7, split) === 6).length;
      expect(Math.abs(a / 1000 - split / 100)).toBeLessThanOrEqual(0.05);
    }
    expect(
      ids.every((id) => comparedVersionFor(id, 6, 7, 99) === 6 || comparedVersionFor(id, 6, 7, 1) === 7),
    ).toBe(true);
  });

  it('agents.compare serves each run one of two versions; effectiveness shows both; off clears it', async () => {
    await newVersion('one');
    await newVersion('two');
    const three = await newVersion('three');
    const ctx = memberContext(engine, 'cli');
    await expect(runCommand(ctx, 'agents.compare', { agent: 'coder', versions: [1, 9] })).rejects.toThrow(
      /versions: coder has no version 9 \(versions: 1, 2, 3\)/,
    );
    await expect(runCommand(ctx, 'agents.compare', { agent: 'coder', versions: [2, 2] })).rejects.toThrow(
      /two different versions/,
    );
    await expect(runCommand(ctx, 'agents.compare', { agent: 'coder', split: 20 })).rejects.toThrow(
      /give versions/,
    );
    await expect(
      runCommand(ctx, 'agents.compare', { agent: 'coder', versions: [1, 2], split: 100 }),
    ).rejects.toThrow(/split/);
    expect(getAgent(engine.db, engine.workspaceId, 'coder')).toMatchObject({ compare_a: null });
    // Runs of v1 before the comparison was set were not chosen by the split: they do not count.
    await rollback(1);
    endRun('pre-0', 'failed');
    endRun('pre-1', 'failed');
    await rollback(three);
    await new Promise((r) => setTimeout(r, 5));

    const set = await runCommand(ctx, 'agents.compare', { agent: 'coder', versions: [1, 2], split: 30 });
    expect(set).toEqual({ agent: 'coder', comparison: { a: 1, b: 2, split: 30 } });
    const ids = Array.from({ length: 40 }, (_, i) => `cmp-${i}`);
    for (const id of ids) {
      const mount = newRunMount();
      const served = serveBrain(engine.db, { ...who(id), agent: 'coder', run: id }, mount);
      expect(served?.version).toBe(comparedVersionFor(id, 1, 2, 30));
      expect(endRun(id, id.endsWith('1') ? 'failed' : 'succeeded')).toBe(served?.version);
    }
    const onA = ids.filter((id) => comparedVersionFor(id, 1, 2, 30) === 1);
    const out = (await runCommand(ctx, 'agents.effectiveness', { agent: 'coder' })) as {
      comparison: { a: number; aStats: { runs: number; succeeded: number; rate: number | null } };
    };
    const aSucceeded = onA.filter((id) => !id.endsWith('1')).length;
    expect(out.comparison).toMatchObject({
      a: 1,
      b: 2,
      split: 30,
      since: getAgent(engine.db, engine.workspaceId, 'coder')?.compare_since,
      aStats: { runs: onA.length, succeeded: aSucceeded, rate: aSucceeded / onA.length },
      bStats: { runs: ids.length - onA.length },
    });

    expect(await runCommand(ctx, 'agents.compare', { agent: 'coder', off: true })).toEqual({
      agent: 'coder',
      comparison: null,
    });
    expect(
      serveBrain(engine.db, { ...who('after'), agent: 'coder', run: 'after' }, newRunMount())?.version,
    ).toBe(three);
  });
});

describe('[G8] effectiveness per version', () => {
  it('counts runs, ended, succeeded, the rate and thumbs per version, with the trend and cost per week', async () => {
    const v1 = await newVersion('one');
    for (const [i, s] of (['succeeded', 'failed', 'failed', 'blocked'] as const).entries())
      endRun(`a${i}`, s);
    const v2 = await newVersion('two');
    endRun('b0', 'succeeded');
    endRun('b1', 'cancelled');
    const v3 = await newVersion('three');
    for (const [i, s] of (['succeeded', 'succeeded', 'failed'] as const).entries()) endRun(`c${i}`, s);
    // People's thumbs on runs count toward the version the run read ([G10]).
    const person = (run: string, type: string) =>
      runCommand(memberContext(engine, 'app'), 'observations.add', { type, text: 'on this run', run });
    await person('c0', 'human_thumbs_up');
    await person('c1', 'human_thumbs_up');
    await person('c2', 'human_thumbs_down');
    await person('a1', 'human_thumbs_down');
    await person('a1', 'human_feedback');

    const out = effectiveness(engine.db, getAgent(engine.db, engine.workspaceId, 'coder')!, engine.scopes());
    expect(
      out.versions.map((v) => [
        v.number,
        v.runs,
        v.ended,
        v.succeeded,
        v.rate,
        v.thumbsUp,
        v.thumbsDown,
        v.score,
      ]),
    ).toEqual([
      // The score counts a thumbs up as one more success and a thumbs down as one more failure.
      [v3, 3, 3, 2, 2 / 3, 2, 1, 4 / 6],
      [v2, 2, 2, 1, 0.5, 0, 0, 0.5],
      [v1, 4, 3, 1, 1 / 3, 0, 1, 1 / 4],
    ]);
    // 66.7 % against 33.3 %: more than 5 points better.
    expect(out.trend).toBe('improving');
    expect(out.weeks).toHaveLength(8);
    expect(out.weeks.at(-1)).toEqual({ week: mondayOf(new Date()), costUsd: null }); // no price set
    expect(out.comparison).toBeNull();

    // Rolled back to v1, the next run reads v1 and records it.
    await rollback(v1);
    expect(endRun('d0', 'succeeded')).toBe(v1);
    // A run of an agent without versions records none.
    expect(
      versionAtRunEnd(engine.db, { workspaceId: engine.workspaceId, user: engine.user }, 'nobody', 'e0'),
    ).toEqual({ agentId: null, version: null });
  });

  it('[G4] cost per version and per week, each week named by its Monday', async () => {
    writeAgentSettings(engine.db, { prices: { scripted: { input: 3, output: 15, cached: 0 } } });
    const now = new Date();
    const cost = (1000 * 3 + 200 * 15) / 1_000_000;
    await newVersion('two weeks ago', new Date(now.getTime() - 14 * 86_400_000));
    await newVersion('this week, one', now);
    await newVersion('this week, two', now);
    const out = effectiveness(
      engine.db,
      getAgent(engine.db, engine.workspaceId, 'coder')!,
      engine.scopes(),
      now,
    );
    expect(out.versions.map((v) => v.costUsd)).toEqual([cost, cost, cost]);
    const monday = (d: Date) => mondayOf(d);
    expect(out.weeks.map((w) => w.week)).toEqual(
      Array.from({ length: 8 }, (_, i) => monday(new Date(now.getTime() - (7 - i) * 7 * 86_400_000))),
    );
    expect(out.weeks.at(-1)?.costUsd).toBeCloseTo(2 * cost, 10);
    expect(out.weeks.at(-2)?.costUsd).toBeNull();
    expect(out.weeks.at(-3)?.costUsd).toBeCloseTo(cost, 10);
    expect(new Date(`${out.weeks[0]?.week}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(mondayOf(new Date('2026-12-06T23:59:00Z'))).toBe('2026-11-30'); // a Sunday
    expect(mondayOf(new Date('2026-11-30T00:00:00Z'))).toBe('2026-11-30'); // a Monday
  });

  it("a person's run feedback needs a feedback type and a run that exists; bad input writes nothing", async () => {
    await newVersion('one');
    endRun('r1', 'succeeded');
    const app = memberContext(engine, 'app');
    const count = () =>
      (engine.db.prepare('SELECT count(*) AS n FROM observations').get() as { n: number }).n;
    const before = count();
    await expect(
      runCommand(app, 'observations.add', { type: 'human_note', text: 'x', run: 'r1' }),
    ).rejects.toThrow(/run: a run is an agent's; a person names one only with feedback/);
    await expect(
      runCommand(app, 'observations.add', { type: 'human_thumbs_up', text: 'x', run: 'nope' }),
    ).rejects.toThrow(/run: no run "nope"/);
    // Another member's run is not one a plain member can see: it looks the same as none.
    engine.addMember('bob', []);
    const bob = ws.open({ user: 'bob' });
    await expect(
      runCommand(memberContext(bob, 'app'), 'observations.add', {
        type: 'human_thumbs_up',
        text: 'x',
        run: 'r1',
      }),
    ).rejects.toThrow(/run: no run "r1" that you can see/);
    expect(count()).toBe(before);
    // The agent surface never takes a run: its run is the server's.
    const agent: CommandContext = {
      ...memberContext(engine, 'agent'),
      agent: { name: 'coder', run: 'own-run', startedAt: new Date().toISOString() },
    };
    await expect(
      runCommand(agent, 'observations.add', { type: 'gotcha', text: 'x', run: 'r1' }),
    ).rejects.toThrow(/Unrecognized key/);
    expect(count()).toBe(before);
  });
});

describe('[G10] sharing an agent', () => {
  it('is for the local admin only; then new observations take the agent’s scope', async () => {
    await newVersion('one');
    engine.addMember('bob', []);
    const bob = ws.open({ user: 'bob' });
    await expect(
      runCommand(memberContext(bob, 'cli'), 'agents.share', { agent: 'coder', scope: 'org' }),
    ).rejects.toMatchObject({ code: 'forbidden' });
    expect(getAgent(engine.db, engine.workspaceId, 'coder')?.scope).toBe(`user:${engine.user}`);
    const admin = memberContext(engine, 'cli');
    await expect(runCommand(admin, 'agents.share', { agent: 'coder', scope: 'team:nope' })).rejects.toThrow(
      /scope: no team "nope"/,
    );
    await expect(runCommand(admin, 'agents.share', { agent: 'coder', scope: 'everyone' })).rejects.toThrow(
      /scope/,
    );
    expect(await runCommand(admin, 'agents.share', { agent: 'coder', scope: 'org' })).toEqual({
      agent: 'coder',
      scope: 'org',
      previous: `user:${engine.user}`,
    });
    expect(observe(engine.db, who('r9'), { type: 'gotcha', text: 'shared now' }).scope).toBe('org');
    // Bob now sees the agent and its effectiveness; his observations for it are kept in org too.
    const seen = (await runCommand(memberContext(bob, 'cli'), 'agents.effectiveness', {
      agent: 'coder',
    })) as {
      versions: unknown[];
    };
    expect(seen.versions).toHaveLength(1);
    expect(observe(bob.db, { ...who(null), user: 'bob' }, { type: 'gotcha', text: 'bob' }).scope).toBe('org');
    // Another agent, never shared, stays in the member's user scope.
    expect(observe(engine.db, who(null, 'other'), { type: 'gotcha', text: 'x' }).scope).toBe(
      `user:${engine.user}`,
    );
  });
});

describe('[G7] the brain within the injection cap', () => {
  const block = (entries: number, chars: number) =>
    brainBlock({
      agent: 'coder',
      version: 3,
      brain: {
        summary: 'What the coder learned.',
        sections: {
          gotchas: Array.from({ length: entries }, (_, i) => ({
            text: `${'g'.repeat(chars - 4)}${String(i).padStart(4, '0')}`,
            observation_ids: ['o_1'],
          })),
          conventions: [{ text: 'Handlers live in commands/.', observation_ids: ['o_2'] }],
        },
      },
    });

  it('truncates by whole entries, round-robin across sections, and never passes the cap', () => {
    const small = renderBrainBlock(block(3, 50), 10_000);
    expect(small).toMatchObject({ shown: 4, total: 4 });
    expect(small.text).toContain('## conventions\n- Handlers live in commands/.');
    const big = renderBrainBlock(block(100, 200), BRAIN_MAX_TOKENS * 4);
    expect(big.shown).toBeLessThan(big.total);
    expect(big.text.length).toBeLessThanOrEqual(BRAIN_MAX_TOKENS * 4);
    // Whole entries only: every gotcha line shown is a full one, and conventions got its turn.
    const lines = big.text.split('\n').filter((l) => l.startsWith('- g'));
    expect(lines.every((l) => l.length === 202)).toBe(true);
    expect(lines).toHaveLength(big.shown - 1);
    expect(big.text).toContain('Handlers live in commands/.');

    const frame = createFrame();
    const memories = Array.from({ length: 8 }, (_, i) => ({
      id: `i${i}`,
      label: `memory ${i}`,
      kind: 'note',
      body: 'word '.repeat(400),
      citation: null,
    }));
    const out = renderWithinBudget(memories, frame, block(100, 200));
    expect(Math.ceil(out.text.length / 4)).toBeLessThanOrEqual(INJECTION_TOKEN_MAX);
    expect(out.tokens).toBeLessThanOrEqual(INJECTION_TOKEN_MAX);
    // The fence's own markers come out of the brain's share: at most as many entries, at least one.
    expect(out.brain?.shown).toBeGreaterThan(0);
    expect(out.brain?.shown).toBeLessThanOrEqual(big.shown);
    // The first memory's own fence, not the words "memory 0": the preamble's markers read
    // "<<memory TOKEN" and a random token may begin with 0.
    const firstMemory = out.text.indexOf(frame.open({ n: 1, id: 'i0' }));
    expect(firstMemory).toBeGreaterThan(0);
    expect(out.text.indexOf('Your agent brain (coder, version 3)')).toBeLessThan(firstMemory);
  });

  it("brain_context's first answer in a run holds the brain; later answers do not", async () => {
    const v = await newVersion('The lease file has no owner line.');
    const mount = newRunMount();
    const ctx: CommandContext = {
      ...memberContext(engine, 'agent'),
      agent: { name: 'coder', run: 'run-ctx', startedAt: new Date().toISOString(), mount },
    };
    const first = (await runCommand(ctx, 'context.get', { message: 'hello there' })) as {
      context: string;
      agentBrain?: { version: number; shown: number; total: number };
      tokens: number;
    };
    expect(first.agentBrain).toEqual({ agent: 'coder', version: v, shown: 1, total: 1 });
    expect(first.context).toMatch(/Your agent brain \(coder, version 1\)[\s\S]*## gotchas\n- lesson o_/);
    expect(mount.served).toBe(v);
    const second = (await runCommand(ctx, 'context.get', { message: 'hello there' })) as {
      agentBrain?: unknown;
    };
    expect(second.agentBrain).toBeUndefined();
    // Without a brain, injection is as before.
    const plain = await inject(engine, { message: 'hello there', surface: 'agent' });
    expect(plain.brain).toBeNull();
  });
});
