/**
 * The workspace server as a Fastify app built from injected dependencies (database, blob store,
 * clock, logger, limits), so tests run it in-process on PGlite or PostgreSQL and `main.ts` runs it
 * for real. Holds no state of its own beyond the per-process rate-limit counters: several
 * processes over one PostgreSQL and one blob store serve the same workspace.
 *
 * Requests are limited per address before anything else, then authenticated (protocol version and
 * device token), then limited per member ([S17]): a stream of garbage tokens is stopped by the
 * first limit, a member's many devices share the second. An hourly sweep removes uploads nothing
 * references ([S27]).
 */
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { AppError } from '#shared/errors.ts';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '#shared/sync/protocol.ts';
import { type Actor, authHook } from './auth.ts';
import type { BlobStore } from './blobs/store.ts';
import { DEFAULT_BLOB_GRACE_MS, DEFAULT_BLOB_QUOTA_BYTES, sweepBlobs } from './blobs/uploads.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Db } from './db/types.ts';
import { badRequest, statusOf, tooLarge } from './errors.ts';
import { registerBlobRoutes } from './routes/blobs/index.ts';
import { registerHealthRoutes } from './routes/health/index.ts';
import { registerInviteRoute, registerRedeemRoute } from './routes/invitations/index.ts';
import { registerMemberRoutes } from './routes/members/index.ts';
import { registerSyncRoutes } from './routes/sync/index.ts';
import { registerTeamRoutes } from './routes/teams/index.ts';

/**
 * `max` requests per member per window; `perAddressMax` per address (default 10 × max: a team
 * behind one office address shares it), counted before the token is looked up.
 */
export type RateLimitOptions = { max: number; timeWindowMs: number; perAddressMax?: number };

export type AppDeps = {
  db: Db;
  blobs: BlobStore;
  /** Where blob uploads are streamed (and hashed) before they reach the store. */
  uploadDir: string;
  clock?: Clock;
  /** Fastify's logger option (pino): `false` in tests, `{ level, stream: process.stderr }` when run. */
  logger?: FastifyServerOptions['logger'];
  /** Requests per address, and per member once authenticated, per window; `false` turns limits off. */
  rateLimit?: RateLimitOptions | false;
  /** Bytes of uploads each member may keep on the server ([S27]). */
  blobQuotaBytes?: number;
  /** How long an upload no item references is kept ([S27]). */
  blobGraceMs?: number;
  /** How often the sweep of unreferenced uploads runs (0: never on a timer; tests call it). */
  sweepEveryMs?: number;
};

export type AppContext = Required<
  Pick<AppDeps, 'db' | 'blobs' | 'uploadDir' | 'clock' | 'blobQuotaBytes' | 'blobGraceMs'>
>;

/** Body limit for everything but pushes and blob uploads, which set their own. */
const JSON_BODY_LIMIT = 256 * 1024;
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { max: 3000, timeWindowMs: 60_000 };

type ErrorReply = { status: number; code: string; message: string; reason?: string };

/** `bodyLimit`: the route's own limit, named when Fastify refuses a body over it (its message has no number). */
function toErrorReply(err: FastifyError | AppError, bodyLimit = JSON_BODY_LIMIT): ErrorReply {
  if (err instanceof AppError) {
    const reason = typeof err.details?.reason === 'string' ? err.details.reason : undefined;
    return { status: statusOf(err), code: err.code, message: err.message, ...(reason ? { reason } : {}) };
  }
  const status = err.statusCode ?? 500;
  if (status === 413) return toErrorReply(tooLarge(bodyLimit));
  if (status === 415) return { status, code: 'unsupported', message: err.message };
  if (status === 429) return { status, code: 'busy', message: err.message };
  if (status >= 400 && status < 500) return toErrorReply(badRequest(err.message));
  return { status: 500, code: 'internal', message: 'Internal server error.' };
}

function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    const e = toErrorReply(err, req.routeOptions?.bodyLimit ?? JSON_BODY_LIMIT);
    if (e.status >= 500) req.log.error({ err }, 'request failed');
    else req.log.info({ code: e.code, status: e.status }, e.message);
    const { status, ...error } = e;
    return reply.status(status).send({ error });
  });
  app.setNotFoundHandler((req, reply) =>
    reply.status(404).send({ error: { code: 'not-found', message: `No route ${req.method} ${req.url}.` } }),
  );
}

function limitError(_req: unknown, ctx: { max: number; after: string }): AppError {
  return new AppError('busy', `Too many requests: limit ${ctx.max} per ${ctx.after}; retry later.`, {
    status: 429,
  });
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
  app.decorateRequest('actor', null);
  app.addHook('onSend', async (_req, reply) => {
    reply.header(PROTOCOL_HEADER, String(PROTOCOL_VERSION));
  });
  const limits = deps.rateLimit === undefined ? DEFAULT_RATE_LIMIT : deps.rateLimit;
  if (limits) {
    // Per address, before the token is even looked up.
    await app.register(rateLimit, {
      global: true,
      max: limits.perAddressMax ?? limits.max * 10,
      timeWindow: limits.timeWindowMs,
      keyGenerator: (req) => `ip:${req.ip}`,
      errorResponseBuilder: limitError,
    });
  }
  const ctx: AppContext = {
    db: deps.db,
    blobs: deps.blobs,
    uploadDir: deps.uploadDir,
    clock: deps.clock ?? systemClock,
    blobQuotaBytes: deps.blobQuotaBytes ?? DEFAULT_BLOB_QUOTA_BYTES,
    blobGraceMs: deps.blobGraceMs ?? DEFAULT_BLOB_GRACE_MS,
  };
  registerHealthRoutes(app, ctx);
  registerRedeemRoute(app, ctx);
  await app.register(async (authed) => {
    authed.addHook('preHandler', authHook(ctx.db));
    if (limits) {
      // Per member, once the token named one: a member's devices share it.
      // createRateLimit, not rateLimit(): the plugin runs one rateLimit handler per request, and
      // the per-address one already ran.
      const perMember = authed.createRateLimit({
        max: limits.max,
        timeWindow: limits.timeWindowMs,
        keyGenerator: (req) => `member:${(req.actor as Actor | null)?.user ?? req.ip}`,
      });
      authed.addHook('preHandler', async (req, reply) => {
        const r = await perMember(req);
        if (r.isAllowed || !r.isExceeded) return;
        reply.header('retry-after', String(r.ttlInSeconds));
        throw limitError(req, { max: r.max, after: `${Math.ceil(limits.timeWindowMs / 1000)} s` });
      });
    }
    registerInviteRoute(authed, ctx);
    registerMemberRoutes(authed, ctx);
    registerTeamRoutes(authed, ctx);
    registerSyncRoutes(authed, ctx);
    await authed.register(async (scoped) => registerBlobRoutes(scoped, ctx));
  });
  scheduleSweep(app, ctx, deps.sweepEveryMs ?? 3600_000);
  return app;
}

/** [S27] The sweep of unreferenced uploads, on a timer that never keeps the process alive. */
function scheduleSweep(app: FastifyInstance, ctx: AppContext, everyMs: number): void {
  if (everyMs <= 0) return;
  const timer = setInterval(() => {
    sweepBlobs(ctx.db, ctx.blobs, ctx.clock.now(), ctx.blobGraceMs).catch((err: unknown) =>
      app.log.error({ err }, 'blob sweep failed'),
    );
  }, everyMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
