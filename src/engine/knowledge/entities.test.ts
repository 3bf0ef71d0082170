/**
 * Entities end to end on a real workspace: mentions create faces per scope, every alias is kept
 * and found, close names are offered (never merged), the dossier cites its mentions, and the graph
 * never shows a team's nodes or edges to someone outside the team (engine, contract and CLI).
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Dossier, DuplicatePair, EntitySummary, GraphView } from '#shared/api/types.ts';
import type { Engine } from '../engine.ts';
import { BrainHost } from '../host/host.ts';
import { getRow } from '../read/items.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { listEntities, possibleDuplicates } from './entities.ts';
import { linkItems, observeMention } from './graph.ts';
import { graphView } from './graph-view.ts';
import { upsertNote } from './notes.ts';

const origin = { actor: 'agent:test', source: 'agent-tool', run: 'r1' };
let ws: TestWorkspace;
let alice: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  const admin = ws.open();
  admin.addMember('alice', ['eng']);
  admin.addMember('bob', []);
  alice = ws.open({ user: 'alice' });
});
afterEach(() => ws.cleanup());

function note(engine: Engine, label: string, body: string, scope = 'org'): string {
  return upsertNote(engine.db, engine.workspaceId, {
    kind: 'fact',
    label,
    body,
    scope,
    sourceKey: `test:${label}`,
    actor: engine.user,
    source: 'test',
  }).id;
}

function mention(engine: Engine, itemId: string, name: string, kind: 'person' | 'company' = 'company') {
  return observeMention(
    engine.db,
    engine.workspaceId,
    engine.scopes(),
    { itemId, name, kind, quote: name },
    origin,
  );
}

describe('aliases', () => {
  it('keeps every spelling a source used and finds the entity by any of them', () => {
    const a = note(alice, 'invoice 1', 'Paid to ACME, Inc. on time.');
    const b = note(alice, 'invoice 2', 'Paid to Acmé S.r.l. late.');
    const c = note(alice, 'invoice 3', 'acme ltd sent a reminder.');
    const first = mention(alice, a, 'ACME, Inc.');
    const second = mention(alice, b, 'Acmé S.r.l.');
    const third = mention(alice, c, 'acme ltd');
    expect(first.entity.created).toBe(true);
    expect(second.entity.id).toBe(first.entity.id);
    expect(third.entity.id).toBe(first.entity.id);
    const [entity] = listEntities(alice.db, alice.scopes(), { limit: 10 });
    expect(entity?.aliases).toEqual(['ACME, Inc.', 'Acmé S.r.l.', 'acme ltd']);
    expect(entity).toMatchObject({ mentions: 3, sources: 3 });
    for (const q of ['acme', 'ACME GMBH', 'Acmé', 'acme, s.p.a.']) {
      expect(listEntities(alice.db, alice.scopes(), { q, limit: 10 }).map((e) => e.id)).toEqual([
        first.entity.id,
      ]);
    }
    expect(listEntities(alice.db, alice.scopes(), { q: 'globex', limit: 10 })).toEqual([]);
  });
});

describe('faces and SAME_AS', () => {
  it('keeps one face per scope, joined by a soft SAME_AS edge visible only to who sees both', () => {
    const org = note(alice, 'org note', 'Globex Corporation supplies us.');
    const team = note(alice, 'eng note', 'Globex is late again.', 'team:eng');
    const orgFace = mention(alice, org, 'Globex Corporation').entity;
    const teamFace = mention(alice, team, 'Globex').entity;
    expect(teamFace.id).not.toBe(orgFace.id);
    expect(teamFace.scope).toBe('team:eng');
    const view = graphView(alice.db, alice.scopes(), { hops: 1, limit: 100, storageKinds: ['entity'] });
    expect(view.edges.map((e) => e.type)).toEqual(['SAME_AS']);
    const bob = ws.open({ user: 'bob' });
    const bobView = graphView(bob.db, bob.scopes(), { hops: 1, limit: 100 });
    expect(bobView.nodes.map((n) => n.id).sort()).toEqual([org, orgFace.id].sort());
    expect(bobView.edges.every((e) => e.type === 'MENTIONS')).toBe(true);
  });

  it('offers close names as possible duplicates and never merges them, even once linked', () => {
    const a = note(alice, 'a', 'Jonathan Smyth owns billing.');
    const b = note(alice, 'b', 'Jonathan Smith signed off.');
    const c = note(alice, 'c', 'Mary Jones reviewed.');
    const smyth = mention(alice, a, 'Jonathan Smyth', 'person').entity;
    const smith = mention(alice, b, 'Jonathan Smith', 'person').entity;
    mention(alice, c, 'Mary Jones', 'person');
    const offered: DuplicatePair[] = possibleDuplicates(alice.db, alice.scopes(), { limit: 10 });
    expect(offered).toHaveLength(1);
    expect([offered[0]?.a.id, offered[0]?.b.id].sort()).toEqual([smyth.id, smith.id].sort());
    expect(offered[0]?.reason).toMatch(/differ by 1 letter/);

    const before = [getRow(alice.db, smyth.id), getRow(alice.db, smith.id)];
    const edge = linkItems(
      alice.db,
      alice.scopes(),
      { from: smyth.id, to: smith.id, type: 'same as' },
      origin,
    );
    expect(edge.props).toEqual({ soft: true });
    // Nothing merged: both rows unchanged, a new mention still finds its own entity.
    expect([getRow(alice.db, smyth.id), getRow(alice.db, smith.id)]).toEqual(before);
    expect(mention(alice, b, 'Jonathan Smith', 'person').entity.id).toBe(smith.id);
    expect(listEntities(alice.db, alice.scopes(), { limit: 10 })).toHaveLength(3);
    expect(possibleDuplicates(alice.db, alice.scopes(), { limit: 10 })).toEqual([]);
  });
});

describe('the dossier, the graph and scopes through the contract and the CLI', () => {
  it('shows mentions with snippets and cited ranges, facts, related entities and what is retired', async () => {
    const md = ws.write(
      'billing.md',
      '# Billing\n\nThe billing migration is owned by Dana Reyes at Initech.\n',
    );
    const [file] = (await alice.add([md])).added;
    await alice.index();
    const section = alice.db
      .prepare("SELECT id, body FROM items WHERE storage_kind = 'section' AND file_id = ?")
      .get(file?.id) as { id: string; body: string };
    const dana = mention(alice, section.id, 'Dana Reyes', 'person').entity;
    mention(alice, section.id, 'Initech');
    const fact = note(alice, 'owner', 'Dana Reyes owns the billing migration.');
    linkItems(alice.db, alice.scopes(), { from: fact, to: dana.id, type: 'about' }, origin);
    const old = note(alice, 'old owner', 'Sam owned the billing migration.');
    linkItems(alice.db, alice.scopes(), { from: old, to: dana.id, type: 'about' }, origin);
    alice.db
      .prepare('UPDATE items SET retired_at = ?, superseded_by = ? WHERE id = ?')
      .run('2025-01-01', fact, old);

    const host = await BrainHost.start(alice, { version: 'test' });
    const res = await host.invoke('items.dossier', { id: dana.id });
    expect(res.ok).toBe(true);
    const d = (res as { data: Dossier }).data;
    const m = d.entity?.mentions[0];
    expect(m?.snippet.match).toBe('Dana Reyes');
    expect(m?.citation?.fileLabel).toBe('Billing');
    expect(m?.origin).toMatchObject({ actor: 'agent:test', source: 'agent-tool', run: 'r1' });
    expect(d.entity?.facts.map((f) => f.item.id)).toEqual([fact]);
    expect(d.entity?.related.map((r) => [r.entity.label, r.via])).toEqual([['Initech', 'CO_MENTIONED']]);
    expect(d.entity?.retired).toMatchObject([{ item: { id: old }, replacement: { id: fact } }]);

    // The mention's link opens the section with exactly the mention highlighted.
    const opened = await host.invoke('items.dossier', { id: section.id, at: m?.span ?? undefined });
    const od = (opened as { data: Dossier }).data;
    expect(od.text?.slice(od.highlight?.start, od.highlight?.end)).toBe('Dana Reyes');
    await host.close();
  });

  it('a second user without the team sees none of its nodes or edges', async () => {
    const orgNote = note(alice, 'public', 'Umbrella Corp is a customer.');
    const secret = note(alice, 'secret', 'Project Falcon is led by Ana Lima with Umbrella Corp.', 'team:eng');
    mention(alice, orgNote, 'Umbrella Corp');
    const teamEntities = [
      mention(alice, secret, 'Project Falcon').entity.id,
      mention(alice, secret, 'Ana Lima', 'person').entity.id,
      mention(alice, secret, 'Umbrella Corp').entity.id,
    ];
    const hidden = new Set([secret, ...teamEntities]);

    const mine = graphView(alice.db, alice.scopes(), { hops: 1, limit: 100 });
    expect(mine.nodes.filter((n) => hidden.has(n.id))).toHaveLength(4);

    const bob = ws.open({ user: 'bob' });
    const host = await BrainHost.start(bob, { version: 'test' });
    const viaContract = (await host.invoke('graph.get', {})) as { ok: true; data: GraphView };
    expect(viaContract.ok).toBe(true);
    const seen = (v: GraphView) => [...v.nodes.map((n) => n.id), ...v.edges.flatMap((e) => [e.from, e.to])];
    expect(viaContract.data.nodes.length).toBe(2);
    expect(seen(viaContract.data).filter((id) => hidden.has(id))).toEqual([]);
    expect(viaContract.data.nodes.every((n) => n.scope === 'org')).toBe(true);
    const around = await host.invoke('graph.get', { around: secret });
    expect(around).toMatchObject({ ok: false, error: { code: 'not-found' } });
    const dossier = await host.invoke('items.dossier', { id: teamEntities[0] });
    expect(dossier).toMatchObject({ ok: false, error: { code: 'not-found' } });
    const list = (await host.invoke('entities.list', {})) as {
      ok: true;
      data: { entities: EntitySummary[] };
    };
    expect(list.data.entities.map((e) => e.label)).toEqual(['Umbrella Corp']);
    await host.close();

    const cli = async (user: string, ...args: string[]) =>
      JSON.parse(
        (
          await promisify(execFile)(
            process.execPath,
            [resolve('bin/brain.mjs'), '--home', ws.home, '--as', user, ...args],
            {
              env: { ...process.env, BRAIN_MODEL_DIR: join(ws.home, 'no-model') },
            },
          )
        ).stdout,
      );
    const bobGraph = (await cli('bob', 'graph', '--json')) as GraphView;
    expect(seen(bobGraph).filter((id) => hidden.has(id))).toEqual([]);
    expect(bobGraph.nodes).toHaveLength(2);
    const aliceGraph = (await cli(
      'alice',
      'graph',
      '--json',
      '--around',
      secret,
      '--hops',
      '1',
    )) as GraphView;
    expect(aliceGraph.nodes.map((n) => n.id).sort()).toEqual([...hidden].sort());
    const bobEntities = (await cli('bob', 'entities', '--json')) as { entities: EntitySummary[] };
    expect(bobEntities.entities.map((e) => e.label)).toEqual(['Umbrella Corp']);
  });
});
