/**
 * Observations on a real SQLite file (docs/AGENTS.md [G1], [G2]): what is recorded, bad input
 * refused by field with nothing written, append-only at the database (triggers of migration
 * 0017-observations), scope filtering, and who may send which type on which surface.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { type CommandContext, memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { listObservations, type Observer, observe } from './observations.ts';

let ws: TestWorkspace;
let alice: Engine;

const count = (e: Engine) =>
  (e.db.prepare('SELECT count(*) AS n FROM observations').get() as { n: number }).n;
const agentOf = (e: Engine, run: string | null = 'run-1'): Observer => ({
  workspaceId: e.workspaceId,
  user: e.user,
  agent: 'coder',
  run,
});
const personOf = (e: Engine): Observer => ({
  workspaceId: e.workspaceId,
  user: e.user,
  agent: null,
  run: null,
});
const agentCtx = (e: Engine): CommandContext => ({
  ...memberContext(e, 'agent'),
  agent: { name: 'coder', run: 'run-7', startedAt: '2026-12-01T00:00:00.000Z' },
});

beforeEach(() => {
  ws = createTestWorkspace();
  alice = ws.open();
  alice.addMember('bob', []);
});
afterEach(async () => {
  await ws.cleanup();
});

describe('[G1] recording an observation', () => {
  it('keeps agent, run, member, scope and the default importance; ids never repeat', () => {
    const a = observe(alice.db, agentOf(alice), { type: 'gotcha', text: 'The staging DB drops idle links.' });
    const b = observe(alice.db, agentOf(alice), { type: 'gotcha', text: 'The staging DB drops idle links.' });
    expect(a).toMatchObject({
      agent: 'coder',
      run: 'run-1',
      user: alice.user,
      scope: `user:${alice.user}`,
      type: 'gotcha',
      importance: 0.5,
      payload: null,
      synthesizedAt: null,
      synthesizedVersion: null,
    });
    expect(a.id).toMatch(/^o_[0-9a-f]{20}$/);
    expect(b.id).not.toBe(a.id);
    const p = observe(alice.db, agentOf(alice, null), {
      type: 'decision',
      payload: { file: 'next.config.ts', flag: 'experimental' },
      importance: 0.9,
    });
    expect(p).toMatchObject({ text: null, run: null, importance: 0.9, payload: { flag: 'experimental' } });
  });

  it('refuses bad input by field and writes nothing', () => {
    const big = { blob: 'x'.repeat(16_400) };
    const cases: [Observer, Parameters<typeof observe>[2], RegExp][] = [
      [agentOf(alice), { type: '', text: 'x' }, /type: 1 to 64/],
      [agentOf(alice), { type: 't'.repeat(65), text: 'x' }, /type: 1 to 64/],
      [agentOf(alice), { type: 'a\nb', text: 'x' }, /type: one line/],
      [agentOf(alice), { type: 'gotcha' }, /text: give text or payload/],
      [agentOf(alice), { type: 'gotcha', text: '   ' }, /text: give text or payload/],
      [agentOf(alice), { type: 'gotcha', text: 'y'.repeat(4001) }, /text: at most 4000/],
      [agentOf(alice), { type: 'gotcha', payload: big }, /payload: at most 16384 bytes/],
      [agentOf(alice), { type: 'gotcha', text: 'x', importance: 1.5 }, /importance: a number from 0 to 1/],
      [agentOf(alice), { type: 'gotcha', text: 'x', importance: Number.NaN }, /importance/],
      [{ ...agentOf(alice), agent: 'bad name!' }, { type: 'gotcha', text: 'x' }, /agent: 1 to 64/],
      [{ ...personOf(alice), run: 'run-1' }, { type: 'human_note', text: 'x' }, /run: a run is an agent's/],
      [agentOf(alice), { type: 'human_feedback', text: 'x' }, /type: human_\* types are people's/],
      [
        personOf(alice),
        { type: 'gotcha', text: 'x' },
        /type: a person's observation has a type starting with human_/,
      ],
    ];
    for (const [who, input, message] of cases) {
      expect(() => observe(alice.db, who, input), JSON.stringify(input).slice(0, 60)).toThrow(message);
    }
    expect(count(alice)).toBe(0);
  });
});

describe('[G1] append-only at the database', () => {
  it('refuses updates of content and deletes; sets the synthesis columns once, from NULL', () => {
    const o = observe(alice.db, agentOf(alice), { type: 'gotcha', text: 'Lint misses unused exports.' });
    const db = alice.db;
    expect(() => db.prepare('UPDATE observations SET text = ? WHERE id = ?').run('rewritten', o.id)).toThrow(
      /observations are append-only: their content cannot change/,
    );
    expect(() => db.prepare('UPDATE observations SET importance = 0.9 WHERE id = ?').run(o.id)).toThrow(
      /observations are append-only: their content cannot change/,
    );
    expect(() => db.prepare('UPDATE observations SET agent = NULL WHERE id = ?').run(o.id)).toThrow(
      /append-only/,
    );
    expect(() => db.prepare('DELETE FROM observations WHERE id = ?').run(o.id)).toThrow(
      /observations are append-only: only pruning deletes them/,
    );
    db.prepare('UPDATE observations SET synthesized_at = ?, synthesized_version = 1 WHERE id = ?').run(
      '2026-12-02T10:00:00.000Z',
      o.id,
    );
    expect(() =>
      db
        .prepare('UPDATE observations SET synthesized_at = ? WHERE id = ?')
        .run('2026-12-03T10:00:00.000Z', o.id),
    ).toThrow(/synthesis is set once, from NULL/);
    expect(() =>
      db.prepare('UPDATE observations SET synthesized_version = 2 WHERE id = ?').run(o.id),
    ).toThrow(/synthesis is set once/);
    expect(listObservations(db, alice.workspaceId, alice.scopes()).observations[0]).toMatchObject({
      text: 'Lint misses unused exports.',
      importance: 0.5,
      synthesizedAt: '2026-12-02T10:00:00.000Z',
      synthesizedVersion: 1,
    });
  });

  it('deletes only while the pruning gate is open, inside its transaction', () => {
    const o = observe(alice.db, agentOf(alice), { type: 'noise', text: 'x', importance: 0.1 });
    const db = alice.db;
    db.transaction(() => {
      db.prepare('UPDATE observation_prune_gate SET open = 1 WHERE id = 1').run();
      db.prepare('DELETE FROM observations WHERE id = ?').run(o.id);
      db.prepare('UPDATE observation_prune_gate SET open = 0 WHERE id = 1').run();
    })();
    expect(count(alice)).toBe(0);
    const again = observe(alice.db, agentOf(alice), { type: 'noise', text: 'y' });
    expect(() => db.prepare('DELETE FROM observations WHERE id = ?').run(again.id)).toThrow(/only pruning/);
    expect(count(alice)).toBe(1);
  });
});

describe('[G1] listing', () => {
  it('filters by agent, type, importance and synthesis, newest first, paged', () => {
    const at = (d: number) => new Date(Date.UTC(2026, 11, d));
    observe(alice.db, agentOf(alice), { type: 'gotcha', text: 'one', importance: 0.2 }, at(1));
    observe(alice.db, { ...agentOf(alice), agent: 'reviewer' }, { type: 'gotcha', text: 'two' }, at(2));
    const three = observe(
      alice.db,
      agentOf(alice),
      { type: 'decision', text: 'three', importance: 0.8 },
      at(3),
    );
    observe(alice.db, personOf(alice), { type: 'human_feedback', text: 'four' }, at(4));
    const texts = (f: Parameters<typeof listObservations>[3]) =>
      listObservations(alice.db, alice.workspaceId, alice.scopes(), f).observations.map((o) => o.text);
    expect(texts({})).toEqual(['four', 'three', 'two', 'one']);
    expect(texts({ agent: 'coder' })).toEqual(['three', 'one']);
    expect(texts({ type: 'gotcha' })).toEqual(['two', 'one']);
    expect(texts({ minImportance: 0.5 })).toEqual(['four', 'three', 'two']);
    expect(texts({ limit: 2, offset: 1 })).toEqual(['three', 'two']);
    alice.db.prepare("UPDATE observations SET synthesized_at = '2026-12-05' WHERE id = ?").run(three.id);
    expect(texts({ agent: 'coder', unsynthesized: true })).toEqual(['one']);
    expect(listObservations(alice.db, alice.workspaceId, alice.scopes(), { limit: 1 }).total).toBe(4);
  });

  it("another member without the scope sees none of them; the recorder's list has them", async () => {
    observe(alice.db, agentOf(alice), { type: 'gotcha', text: "alice's agent's" });
    const bob = ws.open({ user: 'bob' });
    const seen = await runCommand(memberContext(bob, 'cli'), 'observations.list', {});
    expect(seen).toEqual({ observations: [], total: 0 });
    expect(listObservations(bob.db, bob.workspaceId, ['org', 'team:ops', 'user:bob']).total).toBe(0);
    const own = (await runCommand(memberContext(alice, 'cli'), 'observations.list', {})) as { total: number };
    expect(own.total).toBe(1);
  });
});

describe('[G2] who may send which type, by surface', () => {
  it('a person on the app or CLI sends human_* only, with no agent; an agent never human_*', async () => {
    const person = (await runCommand(memberContext(alice, 'app'), 'observations.add', {
      type: 'human_thumbs_down',
      text: 'The answer cited the wrong lease.',
    })) as { observation: { agent: string | null; run: string | null } };
    expect(person.observation).toMatchObject({ agent: null, run: null });
    await expect(
      runCommand(memberContext(alice, 'cli'), 'observations.add', { type: 'gotcha', text: 'x' }),
    ).rejects.toThrow(/type: a person's observation/);
    const agent = (await runCommand(agentCtx(alice), 'observations.add', { type: 'gotcha', text: 'y' })) as {
      observation: { agent: string; run: string };
    };
    expect(agent.observation).toMatchObject({ agent: 'coder', run: 'run-7' });
    await expect(
      runCommand(agentCtx(alice), 'observations.add', { type: 'human_praise', text: 'z' }),
    ).rejects.toThrow(/human_\* types are people's/);
    // The agent and run are the server's: arguments naming them are refused by the schema.
    await expect(
      runCommand(agentCtx(alice), 'observations.add', { type: 'gotcha', text: 'z', agent: 'other' }),
    ).rejects.toThrow(/validation|Unrecognized/i);
    expect(count(alice)).toBe(2);
  });
});
