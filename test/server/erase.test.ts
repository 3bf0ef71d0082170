/**
 * Erasing a source on the workspace server (docs/SYNC_SPEC.md [S35], [S36]), over the protocol, on
 * PGlite and PostgreSQL: an admin's erase deletes the file with its sections, its earlier version,
 * its edges, the ops that carried them and its bytes, and keeps only tombstones and the audit
 * entry; nobody else's erase takes anything, and no answer tells an invisible item from a missing
 * one; a tombstoned id is never written again; every device that held it is sent the erase, once,
 * and again when that page was lost.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Op, PulledOp } from '#shared/sync/protocol.ts';
import { sweepBlobs } from '../../src/server/blobs/uploads.ts';
import type { TestClient } from './client.ts';
import { buildEdgeOp, buildItemOp, hlc, itemId, sectionOf, sha256 } from './factories.ts';
import { forEachBackend, type SuiteEnv, useServer } from './harness.ts';

const BYTES = new TextEncoder().encode('# Handbook\n\nThe quokka wombat timetable.\n');
const BLOB = sha256(BYTES);
const FILE = itemId('handbook', 'f');
const SECTION = sectionOf(FILE, 'handbook#timetable');
const VERSION = itemId('handbook@v1', 'f');
const DECOY = itemId('decoy', 'f');
const NOTE = itemId('trip plan', 'n');

const erase = (id: string, scope = 'org', hlcMs = 50): Extract<Op, { kind: 'item.erase' }> => ({
  id: randomUUID(),
  hlc: hlc(hlcMs),
  kind: 'item.erase',
  scope,
  itemId: id,
});

const kinds = (ops: readonly PulledOp[]) =>
  ops.map(
    (p) =>
      `${p.op.kind}:${p.op.kind === 'item.erase' ? p.op.itemId : p.op.kind === 'item.upsert' ? p.op.item.id : ''}`,
  );

/** The admin's handbook: bytes, a section, an earlier version, a link from a note; a decoy that is no version. */
async function handbook(e: SuiteEnv): Promise<void> {
  expect((await e.admin.putBlob(BLOB, BYTES)).status).toBe(201);
  const item = { blob: BLOB, format: 'markdown', body: 'The quokka wombat timetable.' };
  const r = await e.admin.push([
    buildItemOp(FILE, 'org', { hlc: hlc(1), item }),
    buildItemOp(SECTION, 'org', { hlc: hlc(2), item: { ...item, file_id: FILE } }),
    buildItemOp(VERSION, 'org', {
      hlc: hlc(3),
      item: { ...item, retired_at: '2026-01-02T00:00:00.000Z', superseded_by: FILE },
    }),
    // Superseded by the handbook but not keyed as its version: not part of it.
    buildItemOp(DECOY, 'org', { hlc: hlc(4), item: { superseded_by: FILE } }),
    buildItemOp(NOTE, 'org', { hlc: hlc(5) }),
    buildEdgeOp(FILE, SECTION, 'org', { hlc: hlc(6), edge: { type: 'HAS_SECTION' } }),
    buildEdgeOp(NOTE, FILE, 'org', { hlc: hlc(7) }),
  ]);
  expect(r.refused).toEqual([]);
}

async function rows(e: SuiteEnv, sql: string, params: unknown[] = []) {
  return e.db.query(sql, params);
}

const PARTS = [FILE, SECTION, VERSION];

forEachBackend('[S35] erasing a source on the server', (backend) => {
  const env = useServer(backend);

  it('[S35] [S36] an admin erases the file, its section, its earlier version, their edges, ops and bytes; a tombstone and the audit entry stay', async () => {
    const e = env();
    await handbook(e);
    const r = await e.admin.push([erase(FILE)]);
    expect(r.refused).toEqual([]);
    expect(await rows(e, 'SELECT id FROM items ORDER BY id COLLATE "C"')).toEqual(
      [DECOY, NOTE].sort().map((id) => ({ id })),
    );
    expect(await rows(e, 'SELECT id FROM edges')).toEqual([]);
    // Nothing of it is left in the message store but the erase, which carries no text.
    expect(
      await rows(e, `SELECT kind, entity_id FROM ops WHERE entity_id = ANY($1::text[])`, [PARTS]),
    ).toEqual([{ kind: 'item.erase', entity_id: FILE }]);
    expect(await rows(e, `SELECT seq FROM ops WHERE body LIKE '%quokka%'`)).toEqual([]);
    expect(await rows(e, 'SELECT id, erased_by FROM erased_items ORDER BY id COLLATE "C"')).toEqual(
      [...PARTS].sort().map((id) => ({ id, erased_by: 'admin' })),
    );
    const logged = await rows(e, "SELECT actor, subject, details FROM audit_log WHERE action = 'item.erase'");
    expect(logged).toEqual([
      {
        actor: 'admin',
        subject: FILE,
        details: JSON.stringify({ op: (r.accepted[0] as { id: string }).id, items: 3, edges: 2, blobs: 1 }),
      },
    ]);
    expect(await e.server.blobs.has(BLOB)).toBe(false);
    expect(await rows(e, 'SELECT hash FROM blob_uploads')).toEqual([]);
    // Erasing again (another device, a replay) is accepted and changes nothing.
    expect((await e.admin.push([erase(FILE, 'org', 60)])).refused).toEqual([]);
    expect(await rows(e, "SELECT COUNT(*)::int AS n FROM audit_log WHERE action = 'item.erase'")).toEqual([
      { n: 1 },
    ]);
  });

  it('[S35] only an admin who sees it erases it; an invisible item is answered like a missing one', async () => {
    const e = env();
    await handbook(e);
    const bob = await e.admin.join('bob');
    const secret = itemId('salary', 'n', 'admin');
    expect((await e.admin.push([buildItemOp(secret, 'user:admin', { hlc: hlc(8) })])).refused).toEqual([]);
    const before = await rows(e, 'SELECT id, seq FROM items ORDER BY id');
    const r = await bob.push([
      erase(FILE),
      erase(SECTION),
      erase(secret, 'user:bob'),
      erase(itemId('nothing', 'n', 'bob'), 'user:bob'),
    ]);
    expect(r.refused.map((x) => x.reason)).toEqual([
      `only a workspace admin can erase ${FILE}: bob is not one`,
      `only a workspace admin can erase ${SECTION}: bob is not one`,
    ]);
    // The admin's private note and an id nobody made get the same answer: accepted, nothing erased.
    expect(r.accepted).toHaveLength(2);
    const refusals = await e.admin.push([erase(SECTION), erase(NOTE, 'team:eng')]);
    expect(refusals.refused.map((x) => x.reason)).toEqual([
      `${SECTION} is a section of ${FILE}: erase the file`,
      'admin cannot write in scope team:eng',
    ]);
    expect(await rows(e, 'SELECT id, seq FROM items ORDER BY id')).toEqual(before);
    expect(await rows(e, 'SELECT id FROM erased_items')).toEqual([]);
  });

  it('[S36] a device that holds the erased copy writes none of it and is sent the erase once, again after a lost page', async () => {
    const e = env();
    await handbook(e);
    // The admin's laptop holds it, and has not pulled since.
    const laptop: TestClient = await e.admin.join('admin', [], true);
    const held = await laptop.pullAll();
    expect(kinds(held.ops)).toContain(`item.upsert:${FILE}`);
    const erased = await e.admin.push([erase(FILE)]);
    expect(erased.refused).toEqual([]);
    // It still holds it: its write of the file is refused, and an edge to it finds no end.
    const stale = await laptop.push([
      buildItemOp(FILE, 'org', { hlc: hlc(90), item: { body: 'new text', origin_actor: 'admin' } }),
    ]);
    expect(stale.refused.map((x) => x.reason)).toEqual([
      `item ${FILE} was erased: this device is sent the erase before it may write it again`,
    ]);
    const edge = await laptop.push([
      buildEdgeOp(NOTE, FILE, 'org', { hlc: hlc(92), edge: { type: 'MENTIONS', origin_actor: 'admin' } }),
    ]);
    expect(edge.refused.map((x) => x.reason)).toEqual([`edge end ${FILE} not found`]);
    // Its next page starts with the erase (whatever the cursor), once acknowledged, never again.
    const lost = await laptop.pull(held.cursor);
    expect(kinds(lost.body.ops)).toEqual([`item.erase:${FILE}`]);
    // The page was lost (its push acknowledges none): it still owes the erase, and writes nothing of it.
    const meanwhile = await laptop.push(
      [buildItemOp(FILE, 'org', { hlc: hlc(93), item: { body: 'old text', origin_actor: 'admin' } })],
      null,
    );
    expect(meanwhile.refused).toHaveLength(1);
    const again = await laptop.pull(held.cursor, undefined, null);
    expect(kinds(again.body.ops)).toEqual([`item.erase:${FILE}`]);
    const after = await laptop.pull(again.body.cursor, undefined, again.body.page);
    expect(kinds(after.body.ops)).toEqual([]);
    expect(await rows(e, 'SELECT id FROM items WHERE id = ANY($1::text[])', [PARTS])).toEqual([]);
  });

  it('[S36] a section or version of the erased source names the erase: the device is sent it', async () => {
    const e = env();
    await handbook(e);
    const laptop = await e.admin.join('admin', [], true);
    const held = await laptop.pullAll();
    expect((await e.admin.push([erase(FILE)])).refused).toEqual([]);
    const r = await laptop.push([
      buildItemOp(SECTION, 'org', { hlc: hlc(91), item: { file_id: FILE } }),
      buildItemOp(itemId('handbook@v2', 'f'), 'org', { hlc: hlc(91), item: { superseded_by: FILE } }),
    ]);
    expect(r.refused.map((x) => x.reason)).toEqual([
      `item ${SECTION} was erased: this device is sent the erase before it may write it again`,
      `item ${itemId('handbook@v2', 'f')} is superseded by ${FILE}, which was erased: this device is sent the erase first`,
    ]);
    const told = await laptop.pull(held.cursor);
    expect(kinds(told.body.ops)).toEqual([`item.erase:${FILE}`]);
  });

  it('[S36] once the erase is applied, a new file at the erased path (the same id) is written and reaches the others', async () => {
    const e = env();
    await handbook(e);
    const bob = await e.admin.join('bob');
    const laptop = await e.admin.join('admin', [], true);
    const held = await bob.pullAll();
    const onLaptop = await laptop.pullAll();
    expect((await e.admin.push([erase(FILE)])).refused).toEqual([]);
    // The device that erased it owes nothing: its new file of that path is written at once.
    const fresh = { body: 'The new timetable.' };
    const readd = await e.admin.push([
      buildItemOp(FILE, 'org', { hlc: hlc(100), item: fresh }),
      buildItemOp(SECTION, 'org', { hlc: hlc(101), item: { ...fresh, file_id: FILE } }),
    ]);
    expect(readd.refused).toEqual([]);
    // The erased content itself is never written again under its id, by any device.
    const same = await e.admin.push([
      buildItemOp(SECTION, 'org', {
        hlc: hlc(102),
        item: { blob: BLOB, format: 'markdown', body: 'The quokka wombat timetable.', file_id: FILE },
      }),
    ]);
    expect(same.refused.map((x) => x.reason)).toEqual([
      `item ${SECTION} was erased: the same content is not written again under its id`,
    ]);
    // Bob is sent the erase first, then the new file: nothing of the old text, and no erase again.
    const first = await bob.pullAll(held.cursor);
    expect(kinds(first.ops)).toEqual([`item.erase:${FILE}`, `item.upsert:${FILE}`, `item.upsert:${SECTION}`]);
    expect(kinds((await bob.pull(first.cursor)).body.ops)).toEqual([]);
    // The laptop applies the erase, then its own new edition is accepted too.
    const told = await laptop.pullAll(onLaptop.cursor);
    expect(kinds(told.ops)[0]).toBe(`item.erase:${FILE}`);
    const edition = await laptop.push([
      buildItemOp(FILE, 'org', { hlc: hlc(110), item: { body: 'Edition 3.' } }),
    ]);
    expect(edition.refused).toEqual([]);
    // Erased again: one tombstone per id, naming the last erase, which is the one sent.
    const second = await e.admin.push([erase(FILE, 'org', 120)]);
    expect(second.refused).toEqual([]);
    const tomb = await rows(e, 'SELECT source_id, erase_seq::int AS seq FROM erased_items WHERE id = $1', [
      FILE,
    ]);
    expect(tomb).toEqual([{ source_id: FILE, seq: (second.accepted[0] as { seq: number }).seq }]);
    const last = await bob.pullAll(first.cursor);
    expect(last.ops.map((p) => p.seq)).toEqual([(second.accepted[0] as { seq: number }).seq]);
  });

  it('[S36] the erase sent is the one that erased, not an earlier no-op erase of the same id', async () => {
    const e = env();
    const bob = await e.admin.join('bob');
    const carol = await e.admin.join('carol');
    // Carol erases the id before anyone made it: accepted, nothing erased.
    expect((await carol.push([erase(FILE)])).refused).toEqual([]);
    await handbook(e);
    const held = await bob.pullAll();
    expect((await e.admin.push([erase(FILE)])).refused).toEqual([]);
    const page = await bob.pull(held.cursor);
    expect(page.body.ops.map((p) => p.actor)).toEqual(['admin']);
  });

  it('[S35] an erase takes an upload of the same bytes older than the grace period, which no item needs', async () => {
    const e = env();
    await handbook(e);
    const bob = await e.admin.join('bob');
    expect((await bob.putBlob(BLOB, BYTES)).status).toBeLessThan(300);
    await e.db.query(
      `UPDATE blob_uploads SET uploaded_at = '2000-01-01T00:00:00.000Z' WHERE user_id = 'bob'`,
    );
    expect((await e.admin.push([erase(FILE)])).refused).toEqual([]);
    expect(await rows(e, 'SELECT user_id FROM blob_uploads')).toEqual([]);
    expect(await e.server.blobs.has(BLOB)).toBe(false);
  });

  it('[S35] bytes an erase queued and a crash left are deleted by the next sweep', async () => {
    const e = env();
    await handbook(e);
    expect((await e.admin.push([erase(FILE)])).refused).toEqual([]);
    // As if the process died between the commit and the deletion: the bytes and the queue row stay.
    const tmp = join(mkdtempSync(join(tmpdir(), 'erase-')), 'bytes');
    writeFileSync(tmp, BYTES);
    await e.server.blobs.putFile(BLOB, tmp, BYTES.length);
    await e.db.query(`INSERT INTO blob_deletions (hash, queued_at) VALUES ($1, '2026-01-01T00:00:00.000Z')`, [
      BLOB,
    ]);
    expect(await sweepBlobs(e.db, e.server.blobs, new Date(), 24 * 3600 * 1000)).toBe(1);
    expect(await e.server.blobs.has(BLOB)).toBe(false);
    expect(await rows(e, 'SELECT hash FROM blob_deletions')).toEqual([]);
  });

  it('[S35] an erase keeps the bytes a teammate uploaded a moment ago', async () => {
    const e = env();
    await handbook(e);
    const bob = await e.admin.join('bob');
    // Bob uploads the same bytes for a file he is about to push.
    expect((await bob.putBlob(BLOB, BYTES)).status).toBeLessThan(300);
    expect((await e.admin.push([erase(FILE)])).refused).toEqual([]);
    expect(await rows(e, 'SELECT user_id FROM blob_uploads')).toEqual([{ user_id: 'bob' }]);
    expect(await e.server.blobs.has(BLOB)).toBe(true);
    const mine = itemId('my handbook', 'f', 'bob');
    const pushed = await bob.push([
      buildItemOp(mine, 'user:bob', {
        hlc: hlc(70),
        item: { blob: BLOB, format: 'markdown', origin_actor: 'bob' },
      }),
    ]);
    expect(pushed.refused).toEqual([]);
  });

  it('[S35] [S34] an erase refused for its scope marks every part the device holds stale, so all of it comes back', async () => {
    const e = env();
    await handbook(e);
    const laptop = await e.admin.join('admin', [], true);
    const held = await laptop.pullAll();
    const r = await laptop.push([erase(FILE, 'user:admin')]);
    expect(r.refused.map((x) => x.reason)).toEqual([`op scope user:admin differs from the item's scope org`]);
    const back = await laptop.pull(held.cursor);
    expect(new Set(kinds(back.body.ops))).toEqual(
      new Set([
        `item.upsert:${FILE}`,
        `item.upsert:${SECTION}`,
        `item.upsert:${VERSION}`,
        'edge.upsert:',
        'edge.upsert:',
      ]),
    );
  });

  it('[S35] a pushed op holding a NUL character is refused where it is; the rest of the batch lands', async () => {
    const e = env();
    const mallory = await e.admin.join('mallory', ['eng']);
    const poisoned = itemId('poison', 'n', 'mallory');
    const fine = itemId('fine', 'n', 'mallory');
    const r = await mallory.push([
      buildItemOp(poisoned, 'org', {
        item: { body: 'looks harmless\u0000until erased', origin_actor: 'mallory' },
      }),
      buildItemOp(fine, 'org', { item: { origin_actor: 'mallory' } }),
    ]);
    expect(r.refused.map((x) => x.reason)).toEqual([
      'op.item.body holds a NUL character (U+0000): the server stores no NUL characters',
    ]);
    expect(r.accepted).toHaveLength(1);
    expect(await rows(e, 'SELECT id FROM items')).toEqual([{ id: fine }]);
  });

  it('[S35] an erase takes an item whose stored op holds an escaped NUL (stored before pushes refused it)', async () => {
    const e = env();
    await handbook(e);
    // What a server that took such an op before holds: JSON's escape, which jsonb cannot read.
    await e.db.query(
      "UPDATE ops SET body = replace(body, 'The quokka wombat timetable.', 'The quokka\\u0000 timetable.') WHERE entity_id = $1",
      [SECTION],
    );
    expect(
      (
        await rows(e, 'SELECT count(*)::int AS n FROM ops WHERE entity_id = $1 AND body LIKE $2', [
          SECTION,
          '%u0000%',
        ])
      )[0],
    ).toEqual({ n: 1 });
    const r = await e.admin.push([erase(FILE)]);
    expect(r.refused).toEqual([]);
    expect(await rows(e, 'SELECT id FROM items ORDER BY id COLLATE "C"')).toEqual(
      [DECOY, NOTE].sort().map((id) => ({ id })),
    );
    expect(await e.admin.push([buildItemOp(itemId('after', 'n'), 'org', { hlc: hlc(60) })])).toMatchObject({
      refused: [],
    });
  });

  it('[S25] [S36] a section guessed under an erased file is refused alike whatever content it guesses', async () => {
    const e = env();
    await handbook(e);
    expect((await e.admin.push([erase(FILE)])).refused).toEqual([]);
    const mallory = await e.admin.join('mallory', ['eng']);
    const guess = async (blob: string) =>
      (
        await mallory.push([
          buildItemOp(SECTION, 'org', {
            hlc: hlc(70),
            item: { blob, format: 'markdown', body: 'x', file_id: FILE, origin_actor: 'mallory' },
          }),
        ])
      ).refused.map((r) => r.reason);
    const right = await guess(BLOB);
    expect(right).toHaveLength(1);
    expect(right).toEqual(await guess(sha256('Another handbook altogether.')));
  });
});
