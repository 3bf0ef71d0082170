/** The vector streams on the vector worker answer exactly as the in-thread streams do. */
import { readdirSync, utimesSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { upsertNote } from '../knowledge/notes.ts';
import { closeMirrorFile, mirrorPath, openMirrorFile } from '../search/mirror-file.ts';
import { runStreams, search } from '../search/search.ts';
import {
  closeVectorWorker,
  setVectorWorkerMinRows,
  sharedWorkers,
  startVectors,
  VECTOR_WORKER_MIN_ROWS,
  warmVectors,
} from '../search/vector-client.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';

let ws: TestWorkspace;
let engine: Engine;

beforeEach(async () => {
  ws = createTestWorkspace();
  engine = ws.open({ model: true });
  const topics = [
    'supplier contract renewal',
    'quarterly revenue report',
    'onboarding checklist',
    'api rate limits',
  ];
  for (const [i, t] of topics.entries()) {
    await engine.add([ws.write(`doc-${i}.md`, `# ${t}\n\n${t} details and more words about ${t}.\n`)]);
  }
  await engine.index();
  const vectors = await engine.embedder.embed(topics);
  topics.forEach((t, i) => {
    upsertNote(
      engine.db,
      engine.workspaceId,
      { kind: 'fact', label: `Note on ${t}`, body: t, scope: 'org', actor: 'test', source: 'test' },
      { model: engine.embedder.modelId()!, vector: vectors[i]! },
    );
  });
  setVectorWorkerMinRows(0);
});

afterEach(async () => {
  setVectorWorkerMinRows(VECTOR_WORKER_MIN_ROWS);
  await ws.cleanup();
});

describe('vector worker', () => {
  it('returns the same lists as the in-thread streams, and sees later writes', async () => {
    const [q] = await engine.embedder.embed(['contract renewal']);
    const query = { vector: q!, model: engine.embedder.modelId()! };
    const scopes = ['org'];
    const pending = startVectors(engine.db, query, scopes, 50);
    expect(pending).not.toBeNull();
    const fromWorker = pending!.collect();
    expect(fromWorker).not.toBeNull();
    setVectorWorkerMinRows(Number.MAX_SAFE_INTEGER);
    const inThread = runStreams(engine.db, 'contract renewal', {
      scopes,
      maxK: 100,
      queryVector: query,
    }).vector;
    expect(fromWorker).toEqual(inThread);
    expect(fromWorker!.note.length).toBe(4);

    setVectorWorkerMinRows(0);
    const [v] = await engine.embedder.embed(['contract renewal']);
    upsertNote(
      engine.db,
      engine.workspaceId,
      {
        kind: 'fact',
        label: 'Late note',
        body: 'contract renewal',
        scope: 'org',
        actor: 'test',
        source: 'test',
      },
      { model: engine.embedder.modelId()!, vector: v! },
    );
    const after = startVectors(engine.db, query, scopes, 50)!.collect();
    expect(after!.note.length).toBe(5);
    const result = search(engine.db, 'contract renewal', { scopes, maxK: 100, k: 5, queryVector: query });
    expect(result.semantic).toBe(true);
    expect(result.hits.map((h) => h.label)).toContain('Late note');
    await closeVectorWorker(engine.db);
    // Closed: the streams run in-thread again (a new worker starts on the next search).
    expect(
      search(engine.db, 'contract', { scopes, maxK: 100, k: 5, queryVector: query }).hits.length,
    ).toBeGreaterThan(0);
  });

  it('warms up at start: only where a worker is due, and the first search still gets its own answer', async () => {
    setVectorWorkerMinRows(VECTOR_WORKER_MIN_ROWS);
    expect(warmVectors(engine.db)).toBe(false); // a small workspace searches in-thread
    setVectorWorkerMinRows(0);
    expect(warmVectors(engine.db)).toBe(true);
    const [q] = await engine.embedder.embed(['quarterly revenue']);
    const query = { vector: q!, model: engine.embedder.modelId()! };
    // The warm-up's own answer arrives first on the port and is passed over.
    const fromWorker = startVectors(engine.db, query, ['org'], 50)!.collect();
    setVectorWorkerMinRows(Number.MAX_SAFE_INTEGER);
    const inThread = runStreams(engine.db, 'quarterly revenue', {
      scopes: ['org'],
      maxK: 100,
      queryVector: query,
    }).vector;
    expect(fromWorker).toEqual(inThread);
    await closeVectorWorker(engine.db);
  });

  it('closing lets it finish writing the mirror file it renews after a first load', async () => {
    const [q] = await engine.embedder.embed(['onboarding checklist']);
    const query = { vector: q!, model: engine.embedder.modelId()! };
    const want = startVectors(engine.db, query, ['org'], 50)!.collect();
    await closeVectorWorker(engine.db);
    // A generation the file does not name, with every chunk as it was: the next worker checks the
    // file chunk by chunk, answers, then writes the file anew (after its answer).
    const generation = 'g00000000000000aa';
    engine.db.prepare("UPDATE meta SET value = ? WHERE key = 'vec_generation'").run(generation);
    const path = mirrorPath(engine.db.name, 'note');
    const old = new Date(Date.now() - 11 * 60_000); // renewed once it is 10 minutes old
    utimesSync(path, old, old);
    expect(startVectors(engine.db, query, ['org'], 50)!.collect()).toEqual(want);
    await closeVectorWorker(engine.db);
    const file = openMirrorFile(path);
    expect(file?.generation).toBe(generation);
    if (file) closeMirrorFile(file);
    expect(readdirSync(dirname(path)).filter((n) => n.startsWith(`${basename(path)}.tmp-`))).toEqual([]);
  });

  it('one worker per database file: a second connection shares it, and closing one keeps it for the other', async () => {
    const other = ws.open({ model: true });
    const [q] = await engine.embedder.embed(['api rate limits']);
    const query = { vector: q!, model: engine.embedder.modelId()! };
    const first = startVectors(engine.db, query, ['org'], 50)!.collect();
    const second = startVectors(other.db, query, ['org'], 50);
    expect(second).not.toBeNull();
    expect(second!.collect()).toEqual(first);
    expect(sharedWorkers()).toBe(1);
    await closeVectorWorker(engine.db);
    expect(sharedWorkers()).toBe(1);
    expect(startVectors(other.db, query, ['org'], 50)!.collect()).toEqual(first);
    await closeVectorWorker(other.db);
    expect(sharedWorkers()).toBe(0);
  });
});
