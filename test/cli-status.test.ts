/**
 * `brain status --json` counts with one query (src/engine/status-counts.ts): the same JSON, key
 * for key and number for number, as the separate queries it replaced give on the same workspace.
 * The workspace is made by a real engine; the status comes from a real `brain` process.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { claim, enqueue } from '#engine/jobs/jobs.ts';
import { observeMention } from '#engine/knowledge/graph.ts';
import { upsertNote } from '#engine/knowledge/notes.ts';
import { retireFile } from '#engine/knowledge/retire.ts';
import { createTestWorkspace, type TestWorkspace } from '#engine/testing/test-engine.ts';
import type { StatusView as Status } from '#shared/api/types.ts';
import { cli } from './cli-process.ts';

let ws: TestWorkspace;

beforeEach(() => {
  vi.stubEnv('BRAIN_USER', 'tester');
  ws = createTestWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
  vi.unstubAllEnvs();
});

/** The counts as the eight queries before src/engine/status-counts.ts made them. */
function countsTheOldWay(home: string, scopes: readonly string[]): Pick<Status, 'counts' | 'queue'> {
  const db = new Database(join(home, 'brain.db'), { readonly: true });
  const s = JSON.stringify(scopes);
  const inScope = 'scope IN (SELECT value FROM json_each(?)) AND retired_at IS NULL';
  const count = (where: string) =>
    (db.prepare(`SELECT COUNT(*) AS n FROM items WHERE ${where} AND ${inScope}`).get(s) as { n: number }).n;
  const queue = db
    .prepare(`SELECT state, COUNT(*) AS n FROM jobs WHERE state IN ('queued','running') GROUP BY state`)
    .all() as { state: string; n: number }[];
  const result = {
    counts: {
      files: count("storage_kind = 'file'"),
      indexed: count("storage_kind = 'file' AND indexed = 1"),
      notIndexed: count("storage_kind = 'file' AND indexed = 0 AND index_error IS NULL"),
      failed: count("storage_kind = 'file' AND indexed = 0 AND index_error IS NOT NULL"),
      sections: count("storage_kind = 'section'"),
      notes: count("storage_kind = 'note'"),
      entities: count("storage_kind = 'entity'"),
    },
    queue: {
      queued: queue.find((q) => q.state === 'queued')?.n ?? 0,
      running: queue.find((q) => q.state === 'running')?.n ?? 0,
    },
  };
  db.close();
  return result;
}

/** Files indexed, not indexed, failed and retired; another member's; notes, an entity, jobs. */
async function fillWorkspace(): Promise<void> {
  const engine = ws.open();
  engine.addMember('bob', []);
  const doc = (i: number) => `# Doc ${i}\n\n## Part\n\nGlobex signs the contract ${i}.\n`;
  const added = await engine.add([
    ws.write('a.md', doc(1)),
    ws.write('b.md', doc(2)),
    ws.write('c.md', doc(3)),
    ws.write('retired.md', doc(4)),
    ws.write('broken.pdf', '%PDF-1.4\nthis is not really a PDF\n'),
  ]);
  const [a, b, c, retired, broken] = added.added.map((f) => f.id);
  const report = await engine.index([a, b, retired, broken].map((id) => id ?? ''));
  expect(report.failed.map((f) => f.id)).toEqual([broken]);
  retireFile(engine.db, retired ?? '');
  await ws.open({ user: 'bob' }).add([ws.write('bob.md', doc(5))], { scope: 'user:bob' });
  const note = (label: string, scope: string) =>
    upsertNote(engine.db, engine.workspaceId, {
      kind: 'fact',
      label,
      body: `${label}: Globex renews in March.`,
      scope,
      actor: engine.user,
      source: 'test',
    });
  const seen = note('Renewal', 'org');
  note('Private', 'user:tester');
  const origin = { actor: engine.user, source: 'test', run: 'r1' };
  observeMention(
    engine.db,
    engine.workspaceId,
    engine.scopes(),
    {
      itemId: seen.id,
      name: 'Globex',
      kind: 'company',
      quote: 'Globex',
    },
    origin,
  );
  enqueue(engine.db, 'index', [c ?? '']);
  enqueue(engine.db, 'embed', [a ?? '']);
  claim(engine.db, 'embed');
}

describe('brain status --json', () => {
  it('has the same shape and numbers as the separate queries gave', async () => {
    await fillWorkspace();
    const status = await cli(ws.home, { modelDir: join(ws.home, 'no-model') }).brainJson<Status>('status');
    expect(Object.keys(status)).toEqual([
      'user',
      'workspace',
      'home',
      'scopes',
      'counts',
      'queue',
      'model',
      'embeddingModels',
      'chatModel',
      'sync',
    ]);
    // The two embedding models to choose from ([R8] in docs/RETRIEVAL.md): none downloaded here,
    // English the one chosen.
    expect(status.embeddingModels.map((m) => [m.choice, m.downloaded, m.chosen])).toEqual([
      ['english', false, true],
      ['multilingual', false, false],
    ]);
    expect(Object.keys(status.counts)).toEqual([
      'files',
      'indexed',
      'notIndexed',
      'failed',
      'sections',
      'notes',
      'entities',
    ]);
    expect(Object.keys(status.queue)).toEqual(['queued', 'running']);
    const before = countsTheOldWay(ws.home, status.scopes);
    expect({ counts: status.counts, queue: status.queue }).toEqual(before);
    // And the workspace holds what it was made to: one of each state, none of bob's, none retired.
    expect(before).toEqual({
      counts: { files: 4, indexed: 2, notIndexed: 1, failed: 1, sections: 4, notes: 2, entities: 1 },
      queue: { queued: 1, running: 1 },
    });
  });
});
