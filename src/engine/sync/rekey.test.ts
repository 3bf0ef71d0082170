import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { observe } from '../agents/observations.ts';
import { writeTx } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import { agentId, brainVersionId, entityItemId, observationId, ownedItemId, sectionId } from '../ids.ts';
import { edgeId, linkItems, observeMention } from '../knowledge/graph.ts';
import { upsertNote } from '../knowledge/notes.ts';
import type { ItemRow } from '../read/items.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { rekeyReplica } from './rekey.ts';

let ws: TestWorkspace;
let engine: Engine;
beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open({ user: undefined });
});
afterEach(() => ws.cleanup());

describe('[C8] joining re-keys a replica that already has items', () => {
  it('gives every item the id the server workspace gives its source key, and everything follows', async () => {
    const path = ws.write(
      'handbook.md',
      '# Billing\n\nThe billing migration is owned by Dana.\n\n# Travel\n\nTrains.\n',
    );
    await engine.add([path]);
    await engine.index();
    const note = upsertNote(engine.db, engine.workspaceId, {
      kind: 'fact',
      label: 'private',
      body: 'My own secret wifi password rule.',
      scope: `user:${engine.user}`,
      actor: engine.user,
      source: 'test',
      sourceKey: 'note:mine',
    });
    const section = engine.db
      .prepare("SELECT * FROM items WHERE storage_kind = 'section' LIMIT 1")
      .get() as ItemRow;
    const origin = { actor: engine.user, source: 'test', run: 'r1' };
    observeMention(
      engine.db,
      engine.workspaceId,
      engine.scopes(),
      { itemId: section.id, name: 'Dana', kind: 'person', quote: 'Dana' },
      origin,
    );
    linkItems(engine.db, engine.scopes(), { from: section.id, to: note.id, type: 'relates to' }, origin);
    const before = engine.db.prepare('SELECT COUNT(*) AS n FROM edges').get();

    const result = writeTx(engine.db, () =>
      rekeyReplica(engine.db, { workspaceId: 'server-ws', fromUser: engine.user, toUser: 'alice' }),
    );
    expect(result.items).toBeGreaterThan(3);

    const items = engine.db.prepare('SELECT * FROM items').all() as ItemRow[];
    const ids = new Set(items.map((r) => r.id));
    for (const r of items) {
      expect(r.id).toBe(
        r.storage_kind === 'section'
          ? sectionId(r.file_id ?? '', r.source_key)
          : r.storage_kind === 'entity'
            ? entityItemId('server-ws', r.scope, r.source_key)
            : ownedItemId('server-ws', r.storage_kind, 'alice', r.source_key),
      );
      expect(r.origin_actor).toBe('alice');
      expect(r.workspace_id).toBe('server-ws');
      if (r.file_id) expect(ids.has(r.file_id)).toBe(true);
    }
    expect(items.find((r) => r.source_key === 'note:mine')?.scope).toBe('user:alice');
    const edges = engine.db.prepare('SELECT * FROM edges').all() as {
      id: string;
      type: string;
      from_id: string;
      to_id: string;
      props: string | null;
    }[];
    expect(engine.db.prepare('SELECT COUNT(*) AS n FROM edges').get()).toEqual(before);
    expect(edges.map((e) => e.type)).toEqual(
      expect.arrayContaining(['HAS_SECTION', 'MENTIONS', 'RELATES_TO']),
    );
    for (const e of edges) {
      expect(ids.has(e.from_id) && ids.has(e.to_id)).toBe(true);
      if (e.type === 'HAS_SECTION' || e.type === 'RELATES_TO')
        expect(e.id).toBe(edgeId(e.from_id, e.type, e.to_id));
      if (e.type === 'MENTIONS') {
        const span = (JSON.parse(e.props ?? '{}') as { span: { start: number; end: number } }).span;
        expect(e.id).toBe(edgeId(e.from_id, e.type, e.to_id, `${span.start}-${span.end}`));
      }
    }
    expect(engine.db.prepare("SELECT value FROM meta WHERE key = 'workspace_id'").get()).toEqual({
      value: 'server-ws',
    });
    // rowids did not move: the search index still finds the re-keyed section
    engine.workspaceId = 'server-ws';
    const hits = (await engine.search('billing migration', { mode: 'keyword' })).hits;
    expect(hits.length).toBeGreaterThan(0);
    expect(ids.has(hits[0]?.id ?? '')).toBe(true);
  });

  it('two replicas of one member that added the same file hold the same item once both joined', async () => {
    const path = ws.write('same.md', '# Same\n\nsame bytes\n');
    const other = createTestWorkspace();
    try {
      const a = engine;
      const b = other.open();
      const idA = (await a.add([path])).added[0]?.id;
      const idB = (await b.add([path])).added[0]?.id;
      expect(idA).not.toBe(idB);
      for (const e of [a, b])
        writeTx(e.db, () =>
          rekeyReplica(e.db, { workspaceId: 'server-ws', fromUser: e.user, toUser: 'alice' }),
        );
      const fileId = (e: Engine) =>
        (e.db.prepare("SELECT id FROM items WHERE storage_kind = 'file'").get() as { id: string }).id;
      expect(fileId(a)).toBe(fileId(b));
    } finally {
      void other.cleanup();
    }
  });
});

describe('[C8] joining re-keys proposals too', () => {
  it('a proposal decided before joining names the re-keyed note, scope and users', () => {
    const local = engine.user;
    const note = upsertNote(engine.db, engine.workspaceId, {
      kind: 'decision',
      label: 'Morning deploys',
      body: 'Deploys happen before noon.',
      scope: `user:${local}`,
      actor: local,
      source: 'writeback',
      sourceKey: 'writeback:run-1:0',
      run: 'run-1',
    });
    engine.db
      .prepare(
        `INSERT INTO proposals (id, run_id, ordinal, user_id, kind, label, body, scope, confidence, decision, reason,
           state, item_id, decided_by, created_at)
         VALUES ('p1', 'run-1', 0, ?, 'decision', 'Morning deploys', 'Deploys happen before noon.', ?, 0.6, 'review',
           'user scope', 'approved', ?, ?, 'now')`,
      )
      .run(local, `user:${local}`, note.id, local);
    writeTx(engine.db, () =>
      rekeyReplica(engine.db, { workspaceId: 'server-ws', fromUser: local, toUser: 'alice' }),
    );
    expect(
      engine.db.prepare('SELECT item_id, scope, user_id, decided_by FROM proposals WHERE id = ?').get('p1'),
    ).toEqual({
      item_id: ownedItemId('server-ws', 'note', 'alice', 'writeback:run-1:0'),
      scope: 'user:alice',
      user_id: 'alice',
      decided_by: 'alice',
    });
  });

  it('[G1] an observation follows the workspace and the member, its content unchanged, and stays append-only', () => {
    const local = engine.user;
    const o = observe(
      engine.db,
      { workspaceId: engine.workspaceId, user: local, agent: 'nightly', run: null },
      {
        type: 'gotcha',
        text: 'The staging database resets at midnight.',
      },
    );
    const { key, agent_id: before } = engine.db
      .prepare('SELECT key, agent_id FROM observations WHERE id = ?')
      .get(o.id) as { key: string; agent_id: string };
    // A version that read it, citing it in its brain ([G12]).
    engine.db
      .prepare(
        `INSERT INTO agent_brain_versions (id, workspace_id, agent_id, agent, number, parent, brain, observation_ids, model,
           created_at, created_by) VALUES ('b_old', ?, ?, 'nightly', 1, NULL, ?, ?, 'scripted', 'now', ?)`,
      )
      .run(
        engine.workspaceId,
        before,
        JSON.stringify({ summary: 's', sections: { gotchas: [{ text: 't', observation_ids: [o.id] }] } }),
        JSON.stringify([o.id]),
        local,
      );
    writeTx(engine.db, () =>
      rekeyReplica(engine.db, { workspaceId: 'server-ws', fromUser: local, toUser: 'alice' }),
    );
    const rows = engine.db
      .prepare('SELECT id, workspace_id, user_id, scope, text FROM observations')
      .all() as {
      id: string;
    }[];
    const id = observationId('server-ws', 'alice', key);
    const agent = agentId('server-ws', 'alice', 'nightly');
    expect(engine.db.prepare('SELECT id, creator, scope FROM agents').all()).toEqual([
      { id: agent, creator: 'alice', scope: 'user:alice' },
    ]);
    const version = engine.db
      .prepare('SELECT id, agent_id, brain, observation_ids, created_by FROM agent_brain_versions')
      .get() as {
      id: string;
      agent_id: string;
      brain: string;
      observation_ids: string;
      created_by: string;
    };
    expect(version).toMatchObject({
      id: brainVersionId('server-ws', agent, 1),
      agent_id: agent,
      observation_ids: JSON.stringify([id]),
      created_by: 'alice',
    });
    expect(version.brain).toContain(id);
    expect(version.brain).not.toContain(o.id);
    expect(rows).toEqual([
      {
        id,
        workspace_id: 'server-ws',
        user_id: 'alice',
        scope: 'user:alice',
        text: 'The staging database resets at midnight.',
      },
    ]);
    expect(() => engine.db.prepare("UPDATE observations SET text = 'changed'").run()).toThrow(/append-only/);
  });
});
