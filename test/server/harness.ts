/**
 * The behaviour suites run once per storage backend (STYLE §9.8): `forEachBackend(name, body)`
 * declares `name [pglite]` and `name [postgres]`; the PostgreSQL one is skipped, with a message,
 * when there is no PostgreSQL here. `useServer()` gives each test an emptied database, a fresh
 * in-process server and a connected admin client.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from 'vitest';
import type { AppDeps } from '../../src/server/app.ts';
import type { Db } from '../../src/server/db/types.ts';
import { TestClient } from './client.ts';
import { BACKENDS, type Backend, resetDb, startTestServer, type TestServer } from './support.ts';

export type SuiteEnv = { backend: Backend; db: Db; server: TestServer; admin: TestClient; url: string };

export function forEachBackend(name: string, body: (backend: Backend) => void): void {
  for (const backend of BACKENDS) {
    describe.runIf(backend.available)(`${name} [${backend.name}]`, () => body(backend));
    if (!backend.available) {
      describe(`${name} [${backend.name}]`, () => {
        // A developer machine without PostgreSQL runs the PGlite half only; CI must run both.
        if (process.env.CI) {
          it('needs PostgreSQL in CI (.ci/run installs it)', () => {
            throw new Error('no PostgreSQL binaries under /usr/lib/postgresql and no TEST_DATABASE_URL');
          });
        } else {
          it.skip('skipped: no PostgreSQL binaries under /usr/lib/postgresql and no TEST_DATABASE_URL', () => {});
        }
      });
    }
  }
}

export function useServer(backend: Backend, overrides: Partial<AppDeps> = {}): () => SuiteEnv {
  let opened: Awaited<ReturnType<Backend['open']>> | null = null;
  let env: SuiteEnv | null = null;
  beforeAll(async () => {
    opened = await backend.open();
  }, 120_000);
  afterAll(async () => {
    await opened?.close();
  });
  beforeEach(async () => {
    if (!opened) throw new Error('backend not open');
    const code = await resetDb(opened.db);
    const server = await startTestServer(opened.db, overrides);
    const admin = await new TestClient(server.url).redeem(code, 'admin-laptop');
    env = { backend, db: opened.db, server, admin, url: server.url };
  });
  afterEach(async () => {
    await env?.server.close();
    env = null;
  });
  return () => {
    if (!env) throw new Error('no server: call inside a test');
    return env;
  };
}
