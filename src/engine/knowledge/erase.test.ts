/**
 * Erasing a source (docs/FACTS.md [K14]) on a real workspace (SQLite file, blob store, the tiny
 * embedding model): after `items.erase` nothing of the file is left, in any table (every column of
 * every table is read for its id and for a phrase of its text), in search (words and vectors), in
 * the graph, on the entity pages' history, or in the blob store; bytes another file shares stay.
 * Every refusal (a section, an entity, a connected repository's document, a member who is not the
 * local admin) leaves the database exactly as it was.
 */
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addBytes } from '../add/add.ts';
import { auditFile } from '../audit/index.ts';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Db } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import { setModelSetting } from '../llm/config.ts';
import { mirrorPath } from '../search/mirror-file.ts';
import { rowsHolding, snapshot } from '../testing/db-dump.ts';
import { startScriptedModel } from '../testing/scripted-model.ts';
import { createTestWorkspace, openAsLocalUser, type TestWorkspace } from '../testing/test-engine.ts';
import { ERASED_ANSWER } from './erase.ts';
import { entityFacts } from './facts.ts';
import { addDuplicateCard } from './review-cards.ts';

let ws: TestWorkspace;
let engine: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open({ model: true });
});
afterEach(() => ws.cleanup());

const PHRASE = 'quokka wombat timetable';
const handbook = (edition: string) =>
  `# Travel handbook\n\n## Ferries\n\nThe ${PHRASE} lists the ${edition} crossings to Rottnest.\n\n## Hotels\n\nAcme Stays books our rooms. Rooms cost AUD 180 a night.\n`;

const call = (engineFor: Engine, name: string, input: unknown) =>
  runCommand(memberContext(engineFor, 'cli'), name, input) as Promise<Record<string, unknown>>;

async function addFile(name: string, text: string): Promise<string> {
  const result = await engine.add([ws.write(name, text)]);
  await engine.index();
  const id = result.added[0]?.id ?? result.unchanged[0]?.id;
  if (!id) throw new Error(`${name} was not added`);
  return id;
}

const idsOf = (db: Db, sql: string, ...args: unknown[]) =>
  (db.prepare(sql).all(...args) as { id: string }[]).map((r) => r.id);

describe('[K14] erasing a source', () => {
  it('leaves no trace of the file, its version, sections, links, facts, chat answers, Activity or bytes', async () => {
    const path = ws.write('travel.md', handbook('2025'));
    const file = (await engine.add([path])).added[0]?.id as string;
    await engine.index();
    // A new edition of the same file: the 2025 one is kept as its earlier version ([K16]).
    ws.write('travel.md', handbook('2026'));
    await engine.add([path]);
    await engine.index();
    const other = await addFile('hotels.md', '# Hotels\n\nAcme Stays books our rooms.\n');
    const twin = await addFile('copy-of-hotels.md', '# Hotels\n\nAcme Stays books our rooms.\n');
    const section = idsOf(
      engine.db,
      "SELECT id FROM items WHERE file_id = ? AND retired_at IS NULL AND label LIKE '%Hotels%'",
      file,
    )[0] as string;
    const versions = idsOf(
      engine.db,
      "SELECT id FROM items WHERE superseded_by = ? AND storage_kind = 'file'",
      file,
    );
    expect(versions).toHaveLength(1);

    // Facts: one only the handbook supports (its page empties), one the hotels file supports too.
    const stated = (await call(engine, 'facts.state', {
      entity: 'Acme Stays',
      kind: 'company',
      statement: 'A room costs AUD 180 a night.',
      attribute: 'price',
      item_id: section,
      quote: 'Rooms cost AUD 180 a night.',
    })) as { entity: { id: string } };
    const acme = stated.entity.id;
    for (const id of [section, other])
      await call(engine, 'facts.state', {
        entity: acme,
        statement: 'Acme Stays books our rooms.',
        item_id: id,
        quote: 'Acme Stays books our rooms.',
      });
    const ferry = (await call(engine, 'facts.state', {
      entity: 'Rottnest Ferries',
      kind: 'company',
      statement: 'The timetable lists the 2026 crossings.',
      item_id: file,
      quote: 'lists the 2026 crossings',
    })) as { entity: { id: string } };
    const note = (await call(engine, 'notes.add', {
      kind: 'note',
      label: 'Trip plan',
      body: 'See the handbook.',
    })) as {
      id: string;
    };
    await call(engine, 'links.add', { from_id: note.id, to_id: file, type: 'refers to' });
    // What search, chat and Activity kept of it.
    expect((await engine.search(PHRASE, { mode: 'keyword' })).hits.length).toBeGreaterThan(0);
    const chat = (await call(engine, 'chat.send', {
      message: 'Which crossings to Rottnest does the timetable list?',
    })) as {
      answer: { id: string; passages: unknown[] };
    };
    expect(chat.answer.passages.length).toBeGreaterThan(0);
    // What passes and the inbox keep of it: its audit pass, a compile pass (the scripted chat
    // model finds nothing in it), a Possible duplicate card held for it.
    expect(
      await auditFile(
        { db: engine.db, home: ws.home, workspaceId: engine.workspaceId, surface: 'cli', user: engine.user },
        file,
      ),
    ).toMatchObject({ fileId: file, mode: 'deterministic' });
    const model = await startScriptedModel(() => ({
      content: JSON.stringify({ entities: [], facts: [], decisions: [] }),
    }));
    try {
      await setModelSetting(engine.db, ws.home, 'model.baseUrl', model.url);
      await setModelSetting(engine.db, ws.home, 'model.name', 'scripted');
      await call(engine, 'knowledge.compile', { ids: [file] });
    } finally {
      await model.close();
    }
    addDuplicateCard(engine.db, engine.workspaceId, {
      source: file,
      sourceVersion: 2,
      name: 'Acme Stays',
      kind: 'company',
      candidates: [{ id: acme, label: 'Acme Stays', score: 0.9 }],
      facts: [
        {
          statement: 'Acme Stays books our rooms.',
          attribute: null,
          validAt: null,
          quote: 'Acme Stays books our rooms.',
        },
      ],
      origin: { actor: engine.user, source: 'compile', run: null },
    });
    for (const table of ['audit_passes', 'compile_passes', 'review_cards'])
      expect(
        rowsHolding(engine.db, file).filter((r) => r.table === table),
        table,
      ).toHaveLength(1);
    const erased = [file, ...versions, ...idsOf(engine.db, 'SELECT id FROM items WHERE file_id = ?', file)];
    const rowids = (
      engine.db
        .prepare('SELECT rowid FROM items WHERE id IN (SELECT value FROM json_each(?))')
        .all(JSON.stringify(erased)) as { rowid: number }[]
    ).map((r) => BigInt(r.rowid));
    expect(
      rowids.filter((r) => engine.db.prepare('SELECT 1 FROM vec_items WHERE item_rowid = ?').get(r)).length,
    ).toBeGreaterThan(0);
    const blobs = (
      engine.db
        .prepare(
          'SELECT DISTINCT blob FROM items WHERE id IN (SELECT value FROM json_each(?)) AND blob IS NOT NULL',
        )
        .all(JSON.stringify(erased)) as { blob: string }[]
    ).map((b) => b.blob);
    expect(blobs).toHaveLength(2);

    // A semantic search keeps the vector mirror beside the database ([R9] in docs/RETRIEVAL.md).
    expect((await engine.search(PHRASE)).semantic).toBe(true);
    const mirrorFiles = ['file', 'section'].map((s) => mirrorPath(engine.db.name, s));
    for (const f of mirrorFiles) expect(existsSync(f), f).toBe(true);

    const out = await call(engine, 'items.erase', { id: file });
    // The erased vectors' int8 copies go with the mirror's files (the next load rebuilds them).
    for (const f of mirrorFiles) expect(existsSync(f), f).toBe(false);
    expect(out).toMatchObject({
      id: file,
      label: 'travel.md',
      storageKind: 'file',
      versions: 1,
      blobs: 2,
      sent: false,
      emptied: [{ id: ferry.entity.id, label: 'Rottnest Ferries' }],
    });
    expect(out.sections).toBe(erased.length - 2);
    expect(out.retiredFacts).toBe(2);

    // Nothing of it in any table: neither its ids nor its words (not even in the full-text index's
    // segments), but the erase's own record.
    for (const needle of [...erased, PHRASE, 'quokka']) {
      // The erase's record, and the source's id with its content hash (not added back, [K14]).
      const left = rowsHolding(engine.db, needle).filter(
        (r) => !(r.table === 'telemetry' && r.row.event === 'item.erase') && r.table !== 'erased_content',
      );
      expect(left, needle).toEqual([]);
    }
    const record = engine.db.prepare("SELECT data FROM telemetry WHERE event = 'item.erase'").get() as {
      data: string;
    };
    expect(JSON.parse(record.data)).toEqual({
      id: file,
      versions: 1,
      sections: erased.length - 2,
      links: out.links,
      blobs: 2,
      retiredFacts: 2,
      emptied: [ferry.entity.id],
      sent: false,
    });
    // Search finds nothing of it, by its words or by meaning; no vector is left.
    expect((await engine.search(PHRASE, { mode: 'keyword' })).hits).toEqual([]);
    const semantic = await engine.search(PHRASE);
    expect(semantic.semantic).toBe(true);
    expect(semantic.hits.filter((h) => erased.includes(h.id) || h.citation?.fileId === file)).toEqual([]);
    for (const r of rowids)
      expect(engine.db.prepare('SELECT 1 FROM vec_items WHERE item_rowid = ?').get(r)).toBeUndefined();
    // The graph has no edge to it; the entity pages' history holds no claim of it.
    const edges = engine.db
      .prepare(
        'SELECT COUNT(*) AS n FROM edges WHERE from_id IN (SELECT value FROM json_each(?)) OR to_id IN (SELECT value FROM json_each(?))',
      )
      .get(JSON.stringify(erased), JSON.stringify(erased)) as { n: number };
    expect(edges.n).toBe(0);
    const history = entityFacts(engine.db, engine.scopes(), acme, { history: true });
    expect(history.flatMap((f) => f.citations.map((c) => c.item.id))).toEqual([other]);
    expect(entityFacts(engine.db, engine.scopes(), ferry.entity.id, { history: true })).toEqual([]);
    const hood = (await call(engine, 'graph.neighborhood', { id: acme, hops: 2 })) as { hops: unknown[] };
    expect(JSON.stringify(hood)).not.toContain(file);
    // The chat answer that cited it is replaced; the question stays.
    const thread = engine.db.prepare('SELECT role, text FROM chat_turns ORDER BY at, rowid').all();
    expect(thread).toEqual([
      { role: 'user', text: 'Which crossings to Rottnest does the timetable list?' },
      { role: 'assistant', text: ERASED_ANSWER },
    ]);
    // Its bytes are gone; bytes another file shares stay, and both copies are still found.
    for (const b of blobs) expect(existsSync(engine.blobs.path(b))).toBe(false);
    await call(engine, 'items.erase', { id: twin });
    const kept = engine.db.prepare('SELECT blob FROM items WHERE id = ?').get(other) as { blob: string };
    expect(existsSync(engine.blobs.path(kept.blob))).toBe(true);
    expect(
      (await engine.search('Acme Stays books', { mode: 'keyword' })).hits.map(
        (h) => h.citation?.fileId ?? h.id,
      ),
    ).toContain(other);
  });

  it('is refused for a section, an entity, a repository document and a member who is not the local admin, changing nothing', async () => {
    const file = await addFile('travel.md', handbook('2026'));
    const section = idsOf(engine.db, 'SELECT id FROM items WHERE file_id = ? LIMIT 1', file)[0] as string;
    const entity = (
      (await call(engine, 'mentions.observe', {
        item_id: file,
        name: 'Rottnest',
        kind: 'other',
        quote: 'Rottnest',
      })) as {
        entity: { id: string };
      }
    ).entity.id;
    const result = { added: [], unchanged: [], refused: [], scopeKept: [] } as Parameters<typeof addBytes>[2];
    await addBytes(
      { db: engine.db, blobs: engine.blobs, workspaceId: engine.workspaceId, user: engine.user },
      {
        bytes: Buffer.from('# Runbook\n'),
        name: 'runbook.md',
        path: 'ops/runbook.md',
        sourceKey: 'tree:tree_0123456789abcdef:runbook.md',
        mtime: new Date('2026-11-01T00:00:00Z'),
        scope: 'org',
        originSource: 'tree',
      },
      result,
    );
    const treeDoc = result.added[0]?.id as string;
    const member = openAsLocalUser('bob', { home: ws.home, modelDir: ws.home });
    const before = snapshot(engine.db);
    const cases: [Engine, string, string, RegExp][] = [
      [engine, section, 'validation-failed', /is a section of .*: erase the file/],
      [engine, entity, 'validation-failed', /is an entity: its page follows its sources/],
      [engine, treeDoc, 'validation-failed', /comes from a connected repository: delete it there/],
      [engine, 'f_00000000000000000000', 'not-found', /No item with id f_00000000000000000000/],
      [member, file, 'forbidden', /Erasing is for the local admin only: the local admin is .+, not bob/],
    ];
    for (const [by, id, code, message] of cases) {
      await expect(call(by, 'items.erase', { id }), id).rejects.toMatchObject({
        code,
        message: expect.stringMatching(message),
      });
      expect(snapshot(engine.db), id).toEqual(before);
    }
    await member.close();
  });
});
