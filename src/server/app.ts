/**
 * The workspace server as a Fastify app built from injected dependencies (database, blob store,
 * clock, logger, limits), so tests run it in-process on PGlite or PostgreSQL and `main.ts` runs it
 * for real. Holds no state of its own beyond the per-process rate-limit counters: several
 * processes over one PostgreSQL and one blob store serve the same workspace.
 */
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { AppError } from '../shared/errors.ts';
import type { BlobStore } from './blobs/store.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Db } from './db/types.ts';
import { badRequest, statusOf, tooLarge } from './errors.ts';
import { registerBlobRoutes } from './routes/blobs/index.ts';
import { registerHealthRoutes } from './routes/health/index.ts';
import { registerInvitationRoutes } from './routes/invitations/index.ts';
import { registerMemberRoutes } from './routes/members/index.ts';
import { registerSyncRoutes } from './routes/sync/index.ts';
import { registerTeamRoutes } from './routes/teams/index.ts';
import { sha256Hex } from './tokens.ts';

export type RateLimitOptions = { max: number; timeWindowMs: number };

export type AppDeps = {
  db: Db;
  blobs: BlobStore;
  /** Where blob uploads are streamed (and hashed) before they reach the store. */
  uploadDir: string;
  clock?: Clock;
  /** Fastify's logger option (pino): `false` in tests, `{ level, stream: process.stderr }` when run. */
  logger?: FastifyServerOptions['logger'];
  /** Requests per token (or per address without one) and window; `false` turns limits off. */
  rateLimit?: RateLimitOptions | false;
};

export type AppContext = Required<Pick<AppDeps, 'db' | 'blobs' | 'uploadDir' | 'clock'>>;

/** Body limit for everything but pushes and blob uploads, which set their own. */
export const JSON_BODY_LIMIT = 256 * 1024;
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { max: 3000, timeWindowMs: 60_000 };

function rateKey(header: string | undefined, ip: string): string {
  return header?.startsWith('Bearer ') ? `t:${sha256Hex(header.slice(7).trim())}` : `ip:${ip}`;
}

function toErrorReply(err: FastifyError | AppError): { status: number; code: string; message: string } {
  if (err instanceof AppError) return { status: statusOf(err), code: err.code, message: err.message };
  const status = err.statusCode ?? 500;
  if (status === 413) return toErrorReply(tooLarge(Number(err.message.match(/\d+/)?.[0] ?? 0)));
  if (status === 415) return { status, code: 'unsupported', message: err.message };
  if (status === 429) return { status, code: 'busy', message: err.message };
  if (status >= 400 && status < 500) return toErrorReply(badRequest(err.message));
  return { status: 500, code: 'internal', message: 'Internal server error.' };
}

function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    const e = toErrorReply(err);
    if (e.status >= 500) req.log.error({ err }, 'request failed');
    else req.log.info({ code: e.code, status: e.status }, e.message);
    return reply.status(e.status).send({ error: { code: e.code, message: e.message } });
  });
  app.setNotFoundHandler((req, reply) =>
    reply.status(404).send({ error: { code: 'not-found', message: `No route ${req.method} ${req.url}.` } }),
  );
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: false,
    // Shutting down (SIGTERM, tests) must not wait on clients that keep a connection open.
    forceCloseConnections: true,
  });
  installErrorHandling(app);
  const limits = deps.rateLimit === undefined ? DEFAULT_RATE_LIMIT : deps.rateLimit;
  if (limits) {
    await app.register(rateLimit, {
      global: true,
      max: limits.max,
      timeWindow: limits.timeWindowMs,
      keyGenerator: (req) => rateKey(req.headers.authorization, req.ip),
      errorResponseBuilder: (_req, ctx) =>
        new AppError('busy', `Too many requests: limit ${ctx.max} per ${ctx.after}; retry later.`, {
          status: 429,
        }),
    });
  }
  const ctx: AppContext = {
    db: deps.db,
    blobs: deps.blobs,
    uploadDir: deps.uploadDir,
    clock: deps.clock ?? systemClock,
  };
  registerHealthRoutes(app, ctx);
  registerInvitationRoutes(app, ctx);
  registerMemberRoutes(app, ctx);
  registerTeamRoutes(app, ctx);
  registerSyncRoutes(app, ctx);
  await app.register(async (scoped) => registerBlobRoutes(scoped, ctx));
  return app;
}
