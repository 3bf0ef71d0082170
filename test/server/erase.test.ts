/**
 * Erasing a source on the workspace server (docs/SYNC_SPEC.md [S35], [S36]), over the protocol, on
 * PGlite and PostgreSQL: an admin's erase deletes the file with its sections, its earlier version,
 * its edges, the ops that carried them and its bytes, and keeps only tombstones and the audit
 * entry; nobody else's erase takes anything, and no answer tells an invisible item from a missing
 * one; a tombstoned id is never written again; every device that held it is sent the erase, once,
 * and again when that page was lost.
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Op, PulledOp } from '#shared/sync/protocol.ts';
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

  it('[S36] a tombstoned id is never written again; every device that held it is sent the erase once, again after a lost page', async () => {
    const e = env();
    await handbook(e);
    const bob: TestClient = await e.admin.join('bob');
    const held = await bob.pullAll();
    expect(kinds(held.ops)).toContain(`item.upsert:${FILE}`);
    const admin2 = await e.admin.join('admin', [], true);
    const erased = await e.admin.push([erase(FILE)]);
    expect(erased.refused).toEqual([]);
    // Bob held it: his next page starts with the erase (whatever the cursor), once acknowledged, never again.
    const lost = await bob.pull(held.cursor);
    expect(kinds(lost.body.ops)).toEqual([`item.erase:${FILE}`]);
    const again = await bob.pull(held.cursor, undefined, null);
    expect(kinds(again.body.ops)).toEqual([`item.erase:${FILE}`]);
    const after = await bob.pull(again.body.cursor, undefined, again.body.page);
    expect(kinds(after.body.ops)).toEqual([]);
    // A device of the admin's that never held it writes it again: refused, and sent the erase.
    const rewrite = await admin2.push([
      buildItemOp(FILE, 'org', { hlc: hlc(90), item: { body: 'new text' } }),
    ]);
    expect(rewrite.refused.map((x) => x.reason)).toEqual([
      `item ${FILE} was erased: it cannot be written again`,
    ]);
    const section = await admin2.push([
      buildItemOp(SECTION, 'org', { hlc: hlc(91), item: { file_id: FILE } }),
      // A new earlier version of it would bring its text back.
      buildItemOp(itemId('handbook@v2', 'f'), 'org', { hlc: hlc(91), item: { superseded_by: FILE } }),
    ]);
    expect(section.refused.map((x) => x.reason)).toEqual([
      `item ${SECTION} was erased: it cannot be written again`,
      `item ${itemId('handbook@v2', 'f')} is superseded by ${FILE}, which was erased`,
    ]);
    const edge = await bob.push([
      buildEdgeOp(NOTE, FILE, 'org', { hlc: hlc(92), edge: { type: 'MENTIONS', origin_actor: 'bob' } }),
    ]);
    expect(edge.refused.map((x) => x.reason)).toEqual([`edge end ${FILE} not found`]);
    const told = await admin2.pullAll();
    expect(kinds(told.ops).filter((k) => k.startsWith('item.erase'))).toEqual([`item.erase:${FILE}`]);
    expect(await rows(e, 'SELECT id FROM items WHERE id = ANY($1::text[])', [PARTS])).toEqual([]);
  });
});
