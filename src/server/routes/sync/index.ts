/** Push and pull (docs/SYNC_SPEC.md). A malformed batch is refused whole, before anything is applied. */
import type { FastifyInstance } from 'fastify';
import { PULL_MAX_OPS, PUSH_MAX_BYTES, PushRequestSchema, ROUTES } from '#shared/sync/protocol.ts';
import type { AppContext } from '../../app.ts';
import { actorOf } from '../../auth.ts';
import { pullOps } from '../../sync/pull.ts';
import { pushOps } from '../../sync/push.ts';
import { parseWith } from '../parse.ts';
import { PullQuerySchema } from './schema.ts';

export function registerSyncRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(ROUTES.push, { bodyLimit: PUSH_MAX_BYTES }, async (req) => {
    const actor = actorOf(req);
    const body = parseWith(PushRequestSchema, req.body, 'push batch');
    const result = await pushOps(ctx.db, ctx.clock.now(), actor, body.ops, {
      blobs: ctx.blobs,
      graceMs: ctx.blobGraceMs,
      ack: body.ack,
    });
    req.log.info(
      { user: actor.user, accepted: result.accepted.length, refused: result.refused.length },
      'push',
    );
    return result;
  });
  app.get(ROUTES.pull, async (req) => {
    const actor = actorOf(req);
    const query = parseWith(PullQuerySchema, req.query, 'pull query');
    return pullOps(ctx.db, actor, query.after, Math.min(query.limit, PULL_MAX_OPS), query.ack ?? null);
  });
}
