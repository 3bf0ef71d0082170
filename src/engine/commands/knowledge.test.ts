/**
 * The knowledge operations (src/shared/api/ops/knowledge.ts) on a real workspace: each answers
 * exactly what the engine's own reads give (an output schema that left a field out would strip it
 * from every surface), each surface keeps its own caps, and the scope rules hold in the command,
 * whoever calls it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Surface } from '#shared/api/operation.ts';
import type { Engine } from '../engine.ts';
import { listActivity } from '../knowledge/activity.ts';
import { listEntities, possibleDuplicates } from '../knowledge/entities.ts';
import { linkItems, observeMention } from '../knowledge/graph.ts';
import { graphView } from '../knowledge/graph-view.ts';
import { upsertNote } from '../knowledge/notes.ts';
import { dossier } from '../read/dossier.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { runCommand } from './index.ts';
import { memberContext } from './types.ts';

const origin = { actor: 'agent:test', source: 'agent-tool', run: 'r1' };
let ws: TestWorkspace;
let alice: Engine;

type World = { file: string; section: string; dana: string; falcon: string; smyth: string; smith: string };

function note(engine: Engine, label: string, body: string, scope = 'org'): string {
  const sourceKey = `test:${label}`;
  return upsertNote(engine.db, engine.workspaceId, {
    kind: 'fact',
    label,
    body,
    scope,
    sourceKey,
    actor: engine.user,
    source: 'test',
  }).id;
}

function mention(engine: Engine, itemId: string, name: string, kind: 'person' | 'company' = 'person') {
  const input = { itemId, name, kind, quote: name };
  return observeMention(engine.db, engine.workspaceId, engine.scopes(), input, origin).entity.id;
}

/** A file with two mentions, a fact and a superseded one, a team's secret, two close names. */
async function build(): Promise<World> {
  const md = ws.write(
    'billing.md',
    '# Billing\n\nThe billing migration is owned by Dana Reyes at Initech.\n',
  );
  const file = (await alice.add([md])).added[0]?.id ?? '';
  await alice.index();
  const section = (
    alice.db.prepare("SELECT id FROM items WHERE storage_kind = 'section' AND file_id = ?").get(file) as {
      id: string;
    }
  ).id;
  const dana = mention(alice, section, 'Dana Reyes');
  mention(alice, section, 'Initech', 'company');
  const fact = note(alice, 'owner', 'Dana Reyes owns the billing migration.');
  const old = note(alice, 'old owner', 'Sam owned the billing migration.');
  for (const from of [fact, old])
    linkItems(alice.db, alice.scopes(), { from, to: dana, type: 'about' }, origin);
  alice.db
    .prepare('UPDATE items SET retired_at = ?, superseded_by = ? WHERE id = ?')
    .run('2025-01-01', fact, old);
  const falcon = mention(
    alice,
    note(alice, 'secret', 'Project Falcon ships in May.', 'team:eng'),
    'Project Falcon',
  );
  const names = note(alice, 'billing people', 'Jonathan Smyth and Jonathan Smith review invoices.');
  return {
    file,
    section,
    dana,
    falcon,
    smyth: mention(alice, names, 'Jonathan Smyth'),
    smith: mention(alice, names, 'Jonathan Smith'),
  };
}

const call = (engine: Engine, name: string, input: unknown, surface: Surface = 'app') =>
  runCommand(memberContext(engine, surface), name, input);

beforeEach(() => {
  ws = createTestWorkspace();
  const admin = ws.open();
  admin.addMember('alice', ['eng']);
  admin.addMember('bob', []);
  alice = ws.open({ user: 'alice' });
});
afterEach(() => ws.cleanup());

describe('knowledge operations', () => {
  it('answer what the engine reads, field for field', async () => {
    const w = await build();
    await call(alice, 'search.query', { query: 'billing migration' });
    await call(alice, 'context.get', { message: 'Who owns the billing migration?' });
    const scopes = alice.scopes();
    expect(await call(alice, 'entities.list', {})).toEqual({
      entities: listEntities(alice.db, scopes, { limit: 500 }),
    });
    expect(await call(alice, 'entities.duplicates', {})).toEqual({
      pairs: possibleDuplicates(alice.db, scopes, { limit: 100 }),
    });
    const full = await dossier(alice, w.dana);
    expect(full.entity?.retired).toHaveLength(1);
    expect(await call(alice, 'items.dossier', { id: w.dana })).toEqual(full);
    expect(await call(alice, 'items.dossier', { id: w.file })).toEqual(await dossier(alice, w.file));
    const at = { start: 2, end: 9 };
    expect(await call(alice, 'items.dossier', { id: w.section, at })).toEqual(
      await dossier(alice, w.section, at),
    );
    expect(await call(alice, 'graph.get', {})).toEqual(graphView(alice.db, scopes, { hops: 1, limit: 5000 }));
    const entries = listActivity(alice.db, { user: 'alice', limit: 100 });
    expect(entries.map((e) => e.event)).toEqual(['inject', 'search', 'search', 'add']);
    expect(await call(alice, 'activity.list', {})).toEqual({ entries });
  });

  it('keep each surface to its own caps', async () => {
    await expect(call(alice, 'entities.list', { limit: 6000 })).rejects.toMatchObject({
      code: 'validation-failed',
    });
    await expect(call(alice, 'entities.list', { limit: 6000 }, 'cli')).resolves.toEqual({ entities: [] });
    await expect(call(alice, 'graph.get', { limit: 50_000 })).rejects.toMatchObject({
      code: 'validation-failed',
    });
    await expect(call(alice, 'graph.get', { limit: 50_000 }, 'cli')).resolves.toMatchObject({ nodes: [] });
    await expect(call(alice, 'activity.list', { before: 0 })).resolves.toEqual({ entries: [] });
    await expect(call(alice, 'activity.list', { before: 0 }, 'cli')).rejects.toMatchObject({
      code: 'validation-failed',
    });
    for (const name of ['entities.duplicates', 'entities.link']) {
      await expect(call(alice, name, {}, 'cli')).rejects.toMatchObject({ code: 'not-found' });
    }
  });

  it('keep every scope rule in the command: a member outside the team sees none of it', async () => {
    const w = await build();
    const bob = ws.open({ user: 'bob' });
    const listed = (await call(bob, 'entities.list', {})) as { entities: { id: string }[] };
    expect(listed.entities.map((e) => e.id)).not.toContain(w.falcon);
    await expect(call(bob, 'items.dossier', { id: w.falcon })).rejects.toMatchObject({ code: 'not-found' });
    await expect(call(bob, 'entities.link', { from: w.dana, to: w.falcon })).rejects.toMatchObject({
      code: 'not-found',
    });
    await expect(call(bob, 'graph.get', { around: w.falcon })).rejects.toMatchObject({ code: 'not-found' });
    // Filters narrow what bob may see; asking for the team's scope never widens it.
    await expect(call(bob, 'graph.get', { scopes: ['team:eng'] })).resolves.toMatchObject({
      nodes: [],
      edges: [],
    });
    await call(alice, 'search.query', { query: 'billing' });
    expect(await call(bob, 'activity.list', {})).toEqual({ entries: [] });
  });

  it("record a confirmed link as the member's own soft SAME_AS edge, merging nothing", async () => {
    const w = await build();
    const edge = await call(alice, 'entities.link', { from: w.smyth, to: w.smith, note: 'same person' });
    expect(edge).toMatchObject({ type: 'SAME_AS', from: w.smyth, to: w.smith });
    const row = alice.db
      .prepare('SELECT props, origin_actor, origin_source, origin_run FROM edges WHERE id = ?')
      .get((edge as { id: string }).id);
    expect(row).toEqual({
      props: JSON.stringify({ note: 'same person', soft: true }),
      origin_actor: 'alice',
      origin_source: 'app',
      origin_run: '',
    });
    expect(await call(alice, 'entities.duplicates', {})).toEqual({ pairs: [] });
    const listed = (await call(alice, 'entities.list', { q: 'jonathan' })) as {
      entities: { sameAs: number }[];
    };
    expect(listed.entities.map((e) => e.sameAs)).toEqual([1, 1]);
  });
});
