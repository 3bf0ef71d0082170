/**
 * Server test support: a storage backend (PGlite in memory, or a throwaway PostgreSQL) opened
 * once per file and emptied before each test, and an in-process server on 127.0.0.1:0 over it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppDeps, buildApp } from '../../src/server/app.ts';
import { type BlobStore, createFsBlobStore } from '../../src/server/blobs/store.ts';
import type { Clock } from '../../src/server/clock.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { openPglite } from '../../src/server/db/pglite.ts';
import { openPostgres } from '../../src/server/db/pool.ts';
import type { Db } from '../../src/server/db/types.ts';
import { ensureWorkspace } from '../../src/server/workspace.ts';
import { TEST_WORKSPACE } from './factories.ts';
import { hasPostgres, startPostgres } from './postgres.ts';

export type Backend = {
  name: 'pglite' | 'postgres';
  available: boolean;
  /** Opens a migrated database; `url` is set for PostgreSQL (child processes use it). */
  open(): Promise<{ db: Db; url?: string; close(): Promise<void> }>;
};

export const pgliteBackend: Backend = {
  name: 'pglite',
  available: true,
  async open() {
    const db = await openPglite(null);
    await migrate(db, new Date().toISOString());
    return { db, close: () => db.close() };
  },
};

export const postgresBackend: Backend = {
  name: 'postgres',
  available: hasPostgres,
  async open() {
    const pg = await startPostgres();
    if (!pg) throw new Error('no PostgreSQL');
    const db = await openPostgres(pg.url, 20);
    await migrate(db, new Date().toISOString());
    return {
      db,
      url: pg.url,
      async close() {
        await db.close();
        await pg.stop();
      },
    };
  },
};

export const BACKENDS: readonly Backend[] = [pgliteBackend, postgresBackend];

const TABLES = [
  'erased_items',
  'blob_uploads',
  'pull_pages',
  'device_holdings',
  'proposals',
  'edges',
  'items',
  'ops',
  'audit_log',
  'devices',
  'invitations',
  'team_members',
  'teams',
  'members',
  'workspace',
];

/** Empties every table and makes a fresh workspace; returns its admin invitation. */
export async function resetDb(db: Db, now = new Date()): Promise<string> {
  await db.exec(`TRUNCATE ${TABLES.join(', ')}; UPDATE sync_state SET last_seq = 0;`);
  const code = await ensureWorkspace(db, now, 'Org Brain', TEST_WORKSPACE);
  if (!code) throw new Error('workspace not created');
  return code;
}

/** A clock tests move; it starts at the real time, which replicas' clocks are checked against ([S28]). */
export class FakeClock implements Clock {
  constructor(private t = Date.now()) {}
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

export type TestServer = {
  url: string;
  blobs: BlobStore;
  clock: FakeClock;
  close(): Promise<void>;
};

export async function startTestServer(db: Db, overrides: Partial<AppDeps> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'brain-srv-'));
  const blobs = createFsBlobStore(join(dir, 'blobs'));
  const clock = new FakeClock();
  const app = await buildApp({
    db,
    blobs,
    uploadDir: join(dir, 'uploads'),
    clock,
    rateLimit: false,
    ...overrides,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    blobs,
    clock,
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
