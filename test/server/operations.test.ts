/** Operating the server: rate limits, readiness, migrations, JSON body limits. */
import { describe, expect, it } from 'vitest';
import { ROUTES } from '#shared/sync/protocol.ts';
import { isMigrated, migrate } from '../../src/server/db/migrate.ts';
import { MIGRATIONS } from '../../src/server/db/migrations/index.ts';
import { openPglite } from '../../src/server/db/pglite.ts';
import { TestClient } from './client.ts';
import { forEachBackend, useServer } from './harness.ts';
import { startTestServer } from './support.ts';

forEachBackend('operations', (backend) => {
  const env = useServer(backend);

  it('[S17] requests are limited per member once authenticated, with a clear 429', async () => {
    const e = env();
    const bobToken = (await e.admin.join('bob')).token;
    const limited = await startTestServer(e.db, {
      rateLimit: { max: 3, perAddressMax: 100, timeWindowMs: 60_000 },
    });
    try {
      const admin = new TestClient(limited.url, e.admin.token);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await admin.me()).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const r = await admin.me();
      expect(r.body).toMatchObject({ error: { code: 'busy' } });
      // Another member has their own budget; a second device of the admin shares the admin's.
      expect((await new TestClient(limited.url, bobToken).me()).status).toBe(200);
      const second = await e.admin.join('admin');
      expect((await new TestClient(limited.url, second.token).me()).status).toBe(429);
      expect((await new TestClient(limited.url).request('GET', ROUTES.health)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('[S17] requests are limited per address before the token is checked: rotating garbage tokens are stopped', async () => {
    const e = env();
    const limited = await startTestServer(e.db, {
      rateLimit: { max: 100, perAddressMax: 5, timeWindowMs: 60_000 },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++)
        statuses.push((await new TestClient(limited.url, `garbage-${i}-${Math.random()}`).me()).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
      // The valid token from the same address is limited too: the address is what was abused.
      expect((await new TestClient(limited.url, e.admin.token).me()).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('[S17] JSON bodies other than pushes are small', async () => {
    const e = env();
    const r = await e.admin.request('POST', ROUTES.invite, { user: 'x'.repeat(300_000) });
    expect(r.status).toBe(413);
  });

  it('[S18] migrations are recorded once; readiness needs all of them', async () => {
    const e = env();
    expect(await isMigrated(e.db)).toBe(true);
    expect(await migrate(e.db, new Date().toISOString())).toEqual([]);
    const rows = await e.db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual(MIGRATIONS.map((m) => m.id));
    expect(await isMigrated(e.db, [...MIGRATIONS, { id: '9999-future', sql: 'SELECT 1' }])).toBe(false);
  });

  it('[S18] unknown routes answer a structured 404', async () => {
    const e = env();
    const r = await e.admin.request('GET', '/v1/nothing');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: { code: 'not-found' } });
  });
});

describe('migrations', () => {
  it('[S18] refuse a database migrated by another server version', async () => {
    const db = await openPglite(null);
    try {
      await migrate(db, 'now');
      await db.query("INSERT INTO schema_migrations (id, applied_at) VALUES ('0000-other', 'now')");
      await expect(migrate(db, 'now')).rejects.toThrow(/another server version/);
      expect(await isMigrated(db)).toBe(false);
    } finally {
      await db.close();
    }
  });

  it('[S18] a failed migration leaves nothing behind', async () => {
    const db = await openPglite(null);
    try {
      const broken = [...MIGRATIONS, { id: '0002-broken', sql: 'CREATE TABLE t_ok (x INT); SELECT nope;' }];
      await expect(migrate(db, 'now', broken)).rejects.toThrow();
      expect(await db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 't_ok'")).toEqual([]);
      expect(await isMigrated(db)).toBe(true);
    } finally {
      await db.close();
    }
  });
});
