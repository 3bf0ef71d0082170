/**
 * Starts a workspace server: PGlite in `<dataDir>/db` (or PostgreSQL at `databaseUrl`), blobs in
 * `<dataDir>/blobs` (or S3 when `BRAIN_S3_BUCKET` is set), migrations, the workspace on first
 * start (with one admin invitation), then HTTP. One PGlite data folder belongs to one process:
 * a lock file with the owner's pid refuses a second one while the first is alive.
 *
 * The data folder is the owner's only (rule [M1] in docs/SECURITY.md): folders 0700, files 0600,
 * a folder left looser by an older release tightened once at start. PGlite sets its own file
 * modes (world-readable ones from its initial data files), so `<dataDir>/db` is tightened after
 * it opens and after it closes; while it runs, the 0700 folder above it is the guard.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyServerOptions } from 'fastify';
import { ensurePrivateDir, PRIVATE_FILE_MODE, tightenTree } from '#platform/private-files.ts';
import { isAlive } from '#platform/processes.ts';
import { AppError } from '#shared/errors.ts';
import { type AppDeps, buildApp, DEFAULT_RATE_LIMIT } from './app.ts';
import { createS3BlobStore, s3ConfigFromEnv } from './blobs/s3.ts';
import { type BlobStore, createFsBlobStore } from './blobs/store.ts';
import { type Clock, systemClock } from './clock.ts';
import { migrate } from './db/migrate.ts';
import { openPglite } from './db/pglite.ts';
import { openPostgres } from './db/pool.ts';
import type { Db } from './db/types.ts';
import { ensureWorkspace } from './workspace.ts';

export type StartOptions = {
  dataDir: string;
  port: number;
  host?: string;
  databaseUrl?: string;
  logger?: FastifyServerOptions['logger'];
  clock?: Clock;
  rateLimit?: AppDeps['rateLimit'];
  /** Blob store; default: S3 from the environment when configured, else the data folder. */
  blobs?: BlobStore;
};

export type RunningServer = { url: string; port: number; close(): Promise<void>; firstInvite?: string };

function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, 'server.lock');
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new AppError('busy', `Another server (pid ${pid}) is using ${dataDir}.`);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
  }
  writeFileSync(path, String(process.pid), { mode: PRIVATE_FILE_MODE });
  return () => rmSync(path, { force: true });
}

/** `BRAIN_BLOB_QUOTA_BYTES`: bytes of uploads each member may keep ([S27]); unset: the default. */
function blobQuotaFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const n = Number(env.BRAIN_BLOB_QUOTA_BYTES ?? '');
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

function rateLimitFromEnv(env: NodeJS.ProcessEnv = process.env): AppDeps['rateLimit'] {
  const max = Number(env.BRAIN_RATE_LIMIT_MAX ?? '');
  if (env.BRAIN_RATE_LIMIT_MAX === '0') return false;
  return Number.isFinite(max) && max > 0 ? { ...DEFAULT_RATE_LIMIT, max } : DEFAULT_RATE_LIMIT;
}

async function openDb(opts: StartOptions): Promise<{ db: Db; unlock: () => void }> {
  if (opts.databaseUrl) return { db: await openPostgres(opts.databaseUrl), unlock: () => undefined };
  const unlock = lockDataDir(opts.dataDir);
  const dir = join(opts.dataDir, 'db');
  try {
    const db = await openPglite(dir);
    tightenTree(dir);
    const close = async () => {
      await db.close();
      tightenTree(dir);
    };
    return { db: { ...db, close }, unlock };
  } catch (err) {
    unlock();
    throw err;
  }
}

export async function startServer(opts: StartOptions): Promise<RunningServer> {
  ensurePrivateDir(opts.dataDir);
  const clock = opts.clock ?? systemClock;
  const { db, unlock } = await openDb(opts);
  try {
    await migrate(db, clock.now().toISOString());
    const firstInvite = await ensureWorkspace(db, clock.now());
    const s3 = s3ConfigFromEnv();
    const blobs = opts.blobs ?? (s3 ? createS3BlobStore(s3) : createFsBlobStore(join(opts.dataDir, 'blobs')));
    const uploadDir = join(opts.dataDir, 'uploads');
    ensurePrivateDir(uploadDir);
    const app = await buildApp({
      db,
      blobs,
      uploadDir,
      clock,
      logger: opts.logger ?? false,
      rateLimit: opts.rateLimit ?? rateLimitFromEnv(),
      blobQuotaBytes: blobQuotaFromEnv(),
    });
    const host = opts.host ?? '127.0.0.1';
    await app.listen({ port: opts.port, host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : opts.port;
    const shownHost = host.includes(':') ? `[${host}]` : host;
    return {
      url: `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${port}`,
      port,
      firstInvite: firstInvite ?? undefined,
      async close() {
        await app.close();
        await db.close();
        unlock();
      },
    };
  } catch (err) {
    await db.close().catch(() => undefined);
    unlock();
    throw err;
  }
}
