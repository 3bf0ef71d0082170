/**
 * [D4] in docs/SCHEMA.md: a server database of the previous release (every migration before
 * 0004-authority) with data in it (test/server/previous-release.ts) upgrades to this release's
 * schema and keeps that data; 0004's backfill fills the authority columns from the ops (kind,
 * file and origin of the winning op, the creator from the first op of the id), and this
 * release's server then serves the upgraded rows and accepts a change to them.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { migrate } from '../../src/server/db/migrate.ts';
import { MIGRATIONS } from '../../src/server/db/migrations/index.ts';
import type { Db } from '../../src/server/db/types.ts';
import { TestClient } from './client.ts';
import { buildItemOp, hlc } from './factories.ts';
import { forEachBackend } from './harness.ts';
import {
  AT,
  dump,
  FILE,
  NOTE,
  note,
  openEmpty,
  PREVIOUS,
  PUSHED,
  previousMembers,
  SECTION,
  writePrevious,
} from './previous-release.ts';
import { startTestServer, type TestServer } from './support.ts';

forEachBackend('[D4] a server database of the previous release upgrades with its data', (backend) => {
  let store: Awaited<ReturnType<typeof openEmpty>> | null = null;
  let server: TestServer | null = null;
  beforeEach(async () => {
    store = await openEmpty(backend);
  });
  afterEach(async () => {
    await server?.close();
    await store?.close();
    server = null;
    store = null;
  });

  it('keeps every row, fills the new columns from the ops, and this release serves them', async () => {
    const db = (store as { db: Db }).db;
    expect(await migrate(db, AT, PREVIOUS)).toEqual(['0001-initial', '0002-pull-pages', '0003-proposals']);
    const tokens = await previousMembers(db);
    await writePrevious(db, tokens.devices);
    const before = await dump(db);
    expect(before.ops).toHaveLength(PUSHED.length);

    expect(await migrate(db, '2026-12-01T09:00:00.000Z')).toEqual([
      '0004-authority',
      '0005-holdings-stale',
      '0006-erase',
      '0007-erase-owed',
      '0008-erased-content',
    ]);
    // Every row kept as it was; the columns later migrations add hold their defaults.
    const upgraded = await dump(db);
    expect(upgraded).toMatchObject(before);
    expect(new Set(upgraded.device_holdings?.map((h) => (h as { stale: boolean }).stale))).toEqual(
      new Set([false]),
    );
    const items = await db.query(
      'SELECT id, storage_kind, file_id, namespace, created_by, origin_actor FROM items ORDER BY id',
    );
    const filled = [
      {
        id: FILE,
        storage_kind: 'file',
        file_id: null,
        namespace: null,
        created_by: 'dana',
        origin_actor: 'dana',
      },
      {
        id: NOTE,
        storage_kind: 'note',
        file_id: null,
        namespace: null,
        created_by: 'dana',
        origin_actor: 'admin',
      },
      {
        id: SECTION,
        storage_kind: 'section',
        file_id: FILE,
        namespace: null,
        created_by: 'dana',
        origin_actor: 'dana',
      },
    ];
    expect(items).toEqual(filled.sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect(await db.query('SELECT type, created_by, origin_actor FROM edges')).toEqual([
      { type: 'HAS_SECTION', created_by: 'dana', origin_actor: 'dana' },
    ]);
    expect(await db.query('SELECT * FROM blob_uploads')).toEqual([]);

    // This release's server over the upgraded database: the same ops in order, and an edit of a
    // note made before the upgrade is accepted by its creator, numbered after the old ops.
    server = await startTestServer(db);
    const dana = new TestClient(server.url, tokens.dana, 'dana');
    const pulled = await dana.pullAll();
    expect(pulled.ops.map((o) => [o.seq, o.actor, o.op.id])).toEqual(
      PUSHED.map((p, i) => [i + 1, p.actor, p.op.id]),
    );
    const edit = buildItemOp(NOTE, 'team:eng', { hlc: hlc(8), item: { ...note, origin_actor: 'dana' } });
    expect(await dana.push([edit])).toEqual({
      accepted: [{ id: edit.id, seq: PUSHED.length + 1 }],
      refused: [],
    });
    const [after] = await db.query<{ created_by: string; origin_actor: string }>(
      'SELECT created_by, origin_actor FROM items WHERE id = $1',
      [NOTE],
    );
    expect(after).toEqual({ created_by: 'dana', origin_actor: 'dana' });
  });

  it('[S36] tombstones from before 0007 are filled from the erase that made them: holders owe it', async () => {
    const db = (store as { db: Db }).db;
    const upTo = MIGRATIONS.findIndex((m) => m.id === '0007-erase-owed');
    await migrate(db, AT, MIGRATIONS.slice(0, upTo));
    const op = (seq: number, actor: string) =>
      db.query(
        `INSERT INTO ops (seq, id, actor, kind, scope, entity_id, hlc, body_hash, body, received_at)
         VALUES ($1, $2, $3, 'item.erase', 'org', 'f_gone', $4, 'h', '{}', $5)`,
        [seq, `op${seq}`, actor, hlc(seq), AT],
      );
    // Carol's earlier no-op erase of the id, then the admin's that made the tombstone.
    await op(1, 'carol');
    await op(2, 'admin');
    await db.query(`INSERT INTO erased_items (id, erased_by, erased_at) VALUES ('f_gone', 'admin', $1)`, [
      AT,
    ]);
    await db.query(
      `INSERT INTO device_holdings (device_id, entity_id) VALUES ('d1', 'f_gone'), ('d1', 'n_kept')`,
    );
    expect(await migrate(db, AT)).toEqual(['0007-erase-owed', '0008-erased-content']);
    expect(await db.query('SELECT source_id, erase_seq::int AS seq FROM erased_items')).toEqual([
      { source_id: 'f_gone', seq: 2 },
    ]);
    expect(
      await db.query('SELECT entity_id, erase_seq::int AS seq FROM device_holdings ORDER BY entity_id'),
    ).toEqual([
      { entity_id: 'f_gone', seq: 2 },
      { entity_id: 'n_kept', seq: null },
    ]);
  });
});
