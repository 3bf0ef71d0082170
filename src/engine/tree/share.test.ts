/**
 * Received tree records (docs/TREES.md [T13]) on a real SQLite file: a record is kept only when it
 * is what it says, a received tree waits for exactly the documents its fingerprint names (and
 * their bytes), then builds; a retired record takes the tree away.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncItem } from '#shared/sync/protocol.ts';
import { addBytes } from '../add/add.ts';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import {
  applyTreeRecord,
  fingerprintOf,
  recordItemId,
  repoOriginText,
  type SharedDoc,
  sharedDocs,
  type TreeRecord,
} from './share.ts';
import { buildSource, sourceOf } from './sources.ts';

let ws: TestWorkspace;
let engine: Engine;
const TREE = 'tree_0123456789abcdef';
const COMMIT = 'c'.repeat(40);

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
});
afterEach(() => ws.cleanup());

/** A document of ada's tree as her replica would have synced it: a file item with its origin. */
async function adaDoc(path: string, text: string): Promise<void> {
  const result = { added: [], unchanged: [], refused: [], scopeKept: [] } as Parameters<typeof addBytes>[2];
  await addBytes(
    { db: engine.db, blobs: engine.blobs, workspaceId: engine.workspaceId, user: 'ada' },
    {
      bytes: Buffer.from(text),
      name: path.split('/').pop() ?? path,
      path: `handbook/${path}`,
      sourceKey: `tree:${TREE}:${path}`,
      mtime: new Date('2026-11-01T00:00:00Z'),
      scope: 'org',
      originSource: 'tree',
    },
    result,
  );
  const id = result.added[0]?.id as string;
  const changed = { commit: COMMIT, date: '2026-11-01T00:00:00+00:00', subject: 'Add it' };
  engine.db
    .prepare('UPDATE items SET locator = ? WHERE id = ?')
    .run(repoOriginText({ type: 'repo', tree: TREE, path, commit: COMMIT, changed }), id);
}

function recordItem(record: TreeRecord, patch: Partial<SyncItem> = {}): SyncItem {
  const at = '2026-11-01T00:00:00.000Z';
  return {
    id: recordItemId(engine.workspaceId, 'ada', TREE),
    storage_kind: 'tree',
    kind: 'tree',
    label: 'handbook',
    summary: null,
    body: JSON.stringify(record),
    source_key: `tree:${TREE}`,
    canonical_type: null,
    canonical_value: null,
    blob: null,
    format: null,
    size: null,
    file_id: null,
    ordinal: null,
    locator: null,
    indexed: 1,
    health: null,
    scope: 'org',
    origin_actor: 'ada',
    origin_source: 'tree',
    origin_run: null,
    origin_at: at,
    occurred_at: at,
    retired_at: null,
    superseded_by: null,
    created_at: at,
    updated_at: at,
    version: 1,
    vector: null,
    ...patch,
  };
}

function recordOf(docs: readonly SharedDoc[], documents = docs.length): TreeRecord {
  return {
    v: 1,
    tree: TREE,
    branch: 'main',
    git: true,
    commit: COMMIT,
    documents,
    fingerprint: fingerprintOf(docs),
    others: [],
  };
}

describe('[T13] received tree records', () => {
  it('waits for the documents its fingerprint names, then builds the tree from them', async () => {
    await adaDoc('README.md', '# Handbook\n\nHow we work.\n');
    const one = sharedDocs(engine.db, engine.workspaceId, 'ada', TREE);
    // The record names two documents; only one has arrived.
    const two: SharedDoc[] = [
      ...one,
      { id: 'f_x', path: 'policies/travel.md', blob: 'b'.repeat(64), size: 10, changed: null },
    ];
    expect(applyTreeRecord(engine.db, engine.workspaceId, recordItem(recordOf(two)))).toBe(true);
    const id = recordItemId(engine.workspaceId, 'ada', TREE);
    const waiting = await buildSource(engine, id);
    expect(waiting.waitingFor).toBe(1);
    expect(sourceOf(engine, id)).toMatchObject({
      state: 'queued',
      remote: true,
      waitingFor: 1,
      createdBy: 'ada',
    });

    // The second document arrives, and a newer record names exactly what is here.
    await adaDoc('policies/travel.md', '# Travel\n\nTrains under four hours.\n');
    const both = sharedDocs(engine.db, engine.workspaceId, 'ada', TREE);
    expect(both.map((d) => d.path)).toEqual(['README.md', 'policies/travel.md']);
    applyTreeRecord(engine.db, engine.workspaceId, recordItem(recordOf(both), { version: 2 }));
    const built = await buildSource(engine, id);
    expect(built.waitingFor).toBeUndefined();
    expect(built.source).toMatchObject({ state: 'ready', indexedCommit: COMMIT, waitingFor: null });
    const titles = engine.db
      .prepare("SELECT id, title FROM tree_nodes WHERE source_id = ? AND kind = 'document' ORDER BY id")
      .all(id);
    expect(titles).toEqual([
      { id: 'README.md', title: 'Handbook' },
      { id: 'policies/travel.md', title: 'Travel' },
    ]);

    // Retired: the received tree goes with its rows.
    applyTreeRecord(
      engine.db,
      engine.workspaceId,
      recordItem(recordOf(both), { retired_at: new Date().toISOString() }),
    );
    expect(engine.db.prepare('SELECT COUNT(*) AS n FROM tree_nodes WHERE source_id = ?').get(id)).toEqual({
      n: 0,
    });
    expect(() => sourceOf(engine, id)).toThrow(/No connected repository/);
  });

  it('keeps no record that is not what it says', async () => {
    await adaDoc('README.md', '# Handbook\n\nHow we work.\n');
    const record = recordOf(sharedDocs(engine.db, engine.workspaceId, 'ada', TREE));
    const bad: [string, SyncItem][] = [
      // An id made in someone else's namespace than the origin it names.
      ['another namespace', recordItem(record, { origin_actor: 'mallory' })],
      // A key that is not its tree's.
      ['another key', recordItem(record, { source_key: 'tree:tree_ffffffffffffffff' })],
      ['an origin naming no member', recordItem(record, { origin_actor: 'agent:x/user:' })],
      ['a body that is no record', recordItem(record, { body: '{"v":1}' })],
      ['a body that is no JSON', recordItem(record, { body: 'not json' })],
    ];
    for (const [what, item] of bad) {
      expect(applyTreeRecord(engine.db, engine.workspaceId, item), what).toBe(false);
    }
    expect(engine.db.prepare('SELECT COUNT(*) AS n FROM tree_sources').get()).toEqual({ n: 0 });
  });
});
