/**
 * A throwaway PostgreSQL for the server suite: `TEST_DATABASE_URL` when set (a database is
 * created and dropped in it per test file), else Debian's binaries: initdb into a temp dir and
 * pg_ctl start on a free port, as the `postgres` user (or `pgtest`) when running as root. Returns
 * null when no PostgreSQL binaries are found, so the PostgreSQL half of the suite can skip.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type TestPostgres = { url: string; stop(): Promise<void> };

function findPostgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

export const hasPostgres = Boolean(process.env.TEST_DATABASE_URL) || findPostgresBin() !== null;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function unixUser(name: string): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

/** Runs a PostgreSQL binary, as an unprivileged user when we are root (initdb refuses root). */
function runPg(bin: string, args: string[], asUser: string | null): void {
  if (asUser) execFileSync('runuser', ['-u', asUser, '--', bin, ...args], { stdio: 'pipe' });
  else execFileSync(bin, args, { stdio: 'pipe' });
}

async function withDatabase(adminUrl: string, stopCluster: () => Promise<void>): Promise<TestPostgres> {
  const name = `brain_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async stop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await c.end();
      await stopCluster();
    },
  };
}

export async function startPostgres(): Promise<TestPostgres | null> {
  if (process.env.TEST_DATABASE_URL)
    return withDatabase(process.env.TEST_DATABASE_URL, async () => undefined);
  const bin = findPostgresBin();
  if (!bin) return null;
  const isRoot = process.getuid?.() === 0;
  const asUser = isRoot ? (['postgres', 'pgtest'].find((u) => unixUser(u) !== null) ?? null) : null;
  if (isRoot && !asUser)
    throw new Error('Running as root with no postgres/pgtest user to run PostgreSQL as.');
  const dir = mkdtempSync(join(tmpdir(), 'brain-pg-'));
  const owner = asUser ? unixUser(asUser) : null;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  runPg(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'],
    asUser,
  );
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  runPg(join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', 'start'], asUser);
  const stopCluster = async () => {
    try {
      runPg(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop'], asUser);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return withDatabase(`postgres://postgres@127.0.0.1:${port}/postgres`, stopCluster);
}
