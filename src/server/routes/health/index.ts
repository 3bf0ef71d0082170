/** `/health`: the process answers. `/ready`: the database is reachable and fully migrated. */
import type { FastifyInstance } from 'fastify';
import { ROUTES } from '#shared/sync/protocol.ts';
import type { AppContext } from '../../app.ts';
import { isMigrated } from '../../db/migrate.ts';

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const noLimit = { config: { rateLimit: false } } as const;
  app.get(ROUTES.health, noLimit, async () => ({ ok: true }));
  app.get(ROUTES.ready, noLimit, async (_req, reply) => {
    if (await isMigrated(ctx.db)) return { ok: true };
    return reply
      .status(503)
      .send({ error: { code: 'busy', message: 'Database unreachable or not migrated.' } });
  });
}
