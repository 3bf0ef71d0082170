/**
 * Erasing a source between replicas (docs/SYNC_SPEC.md [S35], [S36], [C16]; docs/FACTS.md [K14])
 * with real components: engines on real SQLite files and the real workspace server over HTTP
 * (PGlite and PostgreSQL). An admin's erase reaches a teammate's replica, which then holds nothing
 * of it and shows the same entity pages; a member's erase is refused by the server and undone on
 * their replica; a replica that writes the erased source again is refused and erases it too.
 */
import { expect, it } from 'vitest';
import { runCommand } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { Engine } from '#engine/engine.ts';
import { syncNow } from '#engine/sync/index.ts';
import { rowsHolding } from '#engine/testing/db-dump.ts';
import { forEachBackend, type SuiteEnv, useServer } from '../server/harness.ts';
import { type Replica, useReplicas } from './replicas.ts';

const PHRASE = 'quokka wombat timetable';
const handbook = (edition: string) =>
  `# Travel handbook\n\n## Ferries\n\nThe ${PHRASE} lists the ${edition} crossings to Rottnest.\n\n## Hotels\n\nAcme Stays books our rooms.\n`;

type Fact = { id: string; statement: string; status: string; citations: { item: { id: string } }[] };

const call = async (engine: Engine, name: string, input: unknown) =>
  (await runCommand(memberContext(engine, 'cli'), name, input)) as Record<string, unknown>;

async function settle(...replicas: Replica[]): Promise<void> {
  for (let i = 0; i < 2; i++) for (const r of replicas) await syncNow(r.engine);
}

async function page(r: Replica, entity: string) {
  const facts = ((await call(r.engine, 'facts.list', { entity, history: true })) as { facts: Fact[] }).facts;
  return facts.map((f) => ({ id: f.id, status: f.status, cited: f.citations.map((c) => c.item.id).sort() }));
}

const ids = (r: Replica, sql: string, ...args: unknown[]) =>
  (r.engine.db.prepare(sql).all(...args) as { id: string }[]).map((x) => x.id);

/** The file, its earlier version and every section of them, as `r` holds them. */
const partsOn = (r: Replica, file: string) =>
  ids(
    r,
    `SELECT id FROM items WHERE id = ?1 OR file_id = ?1 OR superseded_by = ?1 OR file_id IN
       (SELECT id FROM items WHERE superseded_by = ?1) ORDER BY id`.replaceAll('?1', '@file'),
    { file },
  );

/** What `r` holds of a file, to compare before and after. */
function holding(r: Replica, file: string) {
  const db = r.engine.db;
  const items = partsOn(r, file).map((id) =>
    db.prepare('SELECT id, label, body, retired_at, blob FROM items WHERE id = ?').get(id),
  );
  const edges = db
    .prepare('SELECT id FROM edges WHERE from_id IN (SELECT value FROM json_each(?)) ORDER BY id')
    .all(JSON.stringify(partsOn(r, file)));
  return { items, edges };
}

async function serverRows(e: SuiteEnv, sql: string, params: unknown[] = []) {
  return e.db.query(sql, params);
}

forEachBackend('[S35] erasing a source between replicas', (backend) => {
  const env = useServer(backend);
  const replica = useReplicas(env);

  it("[S35] [C16] an admin's erase reaches a teammate's replica: nothing of it is left there, and its pages are the admin's", async () => {
    const ada = await replica('ada', [], { admin: true });
    const bob = await replica('bob');
    const path = ada.ws.write('travel.md', handbook('2025'));
    const file = (await ada.engine.add([path])).added[0]?.id as string;
    await ada.engine.index();
    ada.ws.write('travel.md', handbook('2026'));
    await ada.engine.add([path]);
    await ada.engine.index();
    const other = (
      await ada.engine.add([ada.ws.write('hotels.md', '# Hotels\n\nAcme Stays books our rooms.\n')])
    ).added[0]?.id as string;
    await ada.engine.index();
    const section = ids(
      ada,
      "SELECT id FROM items WHERE file_id = ? AND retired_at IS NULL AND label LIKE '%Hotels%'",
      file,
    )[0];
    const acme = (
      (await call(ada.engine, 'facts.state', {
        entity: 'Acme Stays',
        kind: 'company',
        statement: 'Acme Stays books our rooms.',
        item_id: section,
        quote: 'Acme Stays books our rooms.',
      })) as { entity: { id: string } }
    ).entity.id;
    await call(ada.engine, 'facts.state', {
      entity: acme,
      statement: 'Acme Stays books our rooms.',
      item_id: other,
      quote: 'Acme Stays books our rooms.',
    });
    const ferries = (
      (await call(ada.engine, 'facts.state', {
        entity: 'Rottnest Ferries',
        kind: 'company',
        statement: 'The timetable lists the 2026 crossings.',
        item_id: file,
        quote: 'lists the 2026 crossings',
      })) as { entity: { id: string } }
    ).entity.id;
    await settle(ada, bob);
    // Bob holds all of it, links his own note to it, and searches it.
    const parts = partsOn(bob, file);
    expect(parts).toEqual(partsOn(ada, file));
    expect(parts.length).toBeGreaterThan(3);
    const blobs = (
      bob.engine.db
        .prepare('SELECT DISTINCT blob FROM items WHERE id = ? OR superseded_by = ?')
        .all(file, file) as {
        blob: string;
      }[]
    ).map((b) => b.blob);
    expect(blobs.filter((b) => bob.engine.blobs.has(b))).toHaveLength(2);
    const note = (await call(bob.engine, 'notes.add', {
      kind: 'note',
      label: 'Trip plan',
      body: 'Ferries first.',
    })) as {
      id: string;
    };
    await call(bob.engine, 'links.add', { from_id: note.id, to_id: file, type: 'refers to' });
    expect((await bob.engine.search(PHRASE, { mode: 'keyword' })).hits.length).toBeGreaterThan(0);
    await settle(ada, bob);

    const out = await call(ada.engine, 'items.erase', { id: file });
    expect(out).toMatchObject({ id: file, versions: 1, sent: true, emptied: [{ id: ferries }] });
    await settle(ada, bob);

    // Nothing of it on Bob's replica: no id, no word, no bytes, but the erase's id and content
    // hash (so it is not added back, [K14]); on Ada's, that and her erase's record.
    const tombstone = (r: { table: string }) => r.table === 'erased_content';
    for (const needle of [...parts, PHRASE]) {
      expect(
        rowsHolding(bob.engine.db, needle).filter((r) => !tombstone(r)),
        needle,
      ).toEqual([]);
      expect(
        rowsHolding(ada.engine.db, needle).filter(
          (r) => !tombstone(r) && !(r.table === 'telemetry' && r.row.event === 'item.erase'),
        ),
        needle,
      ).toEqual([]);
    }
    expect(
      rowsHolding(bob.engine.db, file)
        .filter(tombstone)
        .map((r) => Object.keys(r.row).sort()),
    ).toEqual([['content', 'erased_at', 'id']]);
    for (const b of blobs) expect(bob.engine.blobs.has(b)).toBe(false);
    expect((await bob.engine.search(PHRASE, { mode: 'keyword' })).hits).toEqual([]);
    // Bob's note stays, without its link; the entity pages are Ada's.
    expect(ids(bob, 'SELECT id FROM items WHERE id = ?', note.id)).toEqual([note.id]);
    for (const entity of [acme, ferries]) expect(await page(bob, entity)).toEqual(await page(ada, entity));
    expect((await page(bob, acme)).map((f) => f.cited)).toEqual([[other]]);
    expect(await page(bob, ferries)).toEqual([]);
    // The server keeps tombstones and who erased it when; no op carries its text, no bytes are left.
    expect(await serverRows(env(), 'SELECT id FROM items WHERE id = ANY($1::text[])', [parts])).toEqual([]);
    expect(await serverRows(env(), 'SELECT seq FROM ops WHERE body LIKE $1', [`%${PHRASE}%`])).toEqual([]);
    const audit = await serverRows(env(), "SELECT actor, subject FROM audit_log WHERE action = 'item.erase'");
    expect(audit).toEqual([{ actor: 'ada', subject: file }]);
    const tombstones = await serverRows(env(), 'SELECT id, erased_by FROM erased_items');
    expect(tombstones.map((t) => t.id).sort()).toEqual([...parts].sort());
    for (const b of blobs) expect(await env().server.blobs.has(b)).toBe(false);
  });

  it("[S35] [S34] a member's erase is refused by the server and undone on their replica", async () => {
    const ada = await replica('ada', [], { admin: true });
    const bob = await replica('bob');
    const file = (await ada.engine.add([ada.ws.write('travel.md', handbook('2026'))])).added[0]?.id as string;
    await ada.engine.index();
    await settle(ada, bob);
    const before = holding(bob, file);
    expect(before.items.length).toBeGreaterThan(1);
    // A replica that believes its member is an admin (an older or altered one): the server decides.
    bob.engine.db.prepare('UPDATE sync_state SET is_admin = 1 WHERE id = 1').run();
    expect(await call(bob.engine, 'items.erase', { id: file })).toMatchObject({ sent: true });
    expect(partsOn(bob, file)).toEqual([]);
    const report = await syncNow(bob.engine);
    expect(report.unsent).toEqual([
      { kind: 'erase', ref: file, reason: `only a workspace admin can erase ${file}: bob is not one` },
    ]);
    await syncNow(bob.engine);
    expect(holding(bob, file)).toEqual(before);
    expect((await bob.engine.search(PHRASE, { mode: 'keyword' })).hits.length).toBeGreaterThan(0);
    expect(await serverRows(env(), 'SELECT id FROM erased_items')).toEqual([]);
    expect(holding(ada, file)).toEqual(before);
  });

  it('[S36] a replica that writes the erased source again is refused, and erases it too', async () => {
    const ada = await replica('ada', [], { admin: true });
    const path = ada.ws.write('travel.md', handbook('2026'));
    const file = (await ada.engine.add([path])).added[0]?.id as string;
    await ada.engine.index();
    await settle(ada);
    // Ada's other device holds it, and is offline while she erases it.
    const laptop = await replica('ada', [], { admin: true });
    expect(partsOn(laptop, file).length).toBeGreaterThan(1);
    await call(ada.engine, 'items.erase', { id: file });
    await settle(ada);
    // Offline, the laptop takes a new edition of the same file: the same item, its old text kept as a version.
    ada.ws.write('travel.md', handbook('2027'));
    await laptop.engine.add([path]);
    const report = await syncNow(laptop.engine);
    expect(report.unsent.map((u) => u.reason)).toContain(
      `item ${file} was erased: this device is sent the erase before it may write it again`,
    );
    expect(partsOn(laptop, file)).toEqual([]);
    expect(rowsHolding(laptop.engine.db, PHRASE)).toEqual([]);
    // What is left of it there is the report of the refused change ([S29]).
    expect(new Set(rowsHolding(laptop.engine.db, file).map((r) => r.table))).toEqual(
      new Set(['sync_refused', 'erased_content']),
    );
    expect(await serverRows(env(), `SELECT seq FROM ops WHERE body LIKE $1`, [`%${PHRASE}%`])).toEqual([]);
    expect(await serverRows(env(), "SELECT id FROM items WHERE storage_kind <> 'entity'")).toEqual([]);
  });

  it('[S36] a file added again at the erased path after the erase keeps its new text, here and on a teammate', async () => {
    const ada = await replica('ada', [], { admin: true });
    const bob = await replica('bob');
    const path = ada.ws.write('travel.md', handbook('2026'));
    const file = (await ada.engine.add([path])).added[0]?.id as string;
    await ada.engine.index();
    await settle(ada, bob);
    expect(partsOn(bob, file).length).toBeGreaterThan(1);
    await call(ada.engine, 'items.erase', { id: file });
    // Before any sync, Ada drops a new file at the same path: the same id as the erased one.
    ada.ws.write('travel.md', '# Travel handbook\n\n## Ferries\n\nThe new crossings start in March.\n');
    const again = (await ada.engine.add([path])).added[0]?.id;
    expect(again).toBe(file);
    await ada.engine.index();
    await settle(ada, bob);
    await settle(ada, bob);
    for (const r of [ada, bob]) {
      const row = r.engine.db.prepare('SELECT body FROM items WHERE id = ?').get(file) as
        | { body: string }
        | undefined;
      expect(row?.body).toContain('The new crossings start in March.');
      expect(rowsHolding(r.engine.db, PHRASE)).toEqual([]);
    }
    expect((await syncNow(ada.engine)).unsent).toEqual([]);
    expect(await serverRows(env(), `SELECT seq FROM ops WHERE body LIKE $1`, [`%${PHRASE}%`])).toEqual([]);
  });

  it('[K14] [S36] the erased file itself is not added back (a watched folder looks again): refused, naming why', async () => {
    const ada = await replica('ada', [], { admin: true });
    const path = ada.ws.write('travel.md', handbook('2026'));
    const file = (await ada.engine.add([path])).added[0]?.id as string;
    await ada.engine.index();
    await settle(ada);
    await call(ada.engine, 'items.erase', { id: file });
    await settle(ada);
    const again = await ada.engine.add([path]);
    expect(again.added).toEqual([]);
    expect(again.refused.map((r) => r.reason)).toEqual([
      'travel.md was erased from this workspace: the same file is not added back (change it, or add it under another name)',
    ]);
    expect(partsOn(ada, file)).toEqual([]);
    expect(rowsHolding(ada.engine.db, PHRASE)).toEqual([]);
    expect((await syncNow(ada.engine)).unsent).toEqual([]);
  });
});
