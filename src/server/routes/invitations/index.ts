/** Invitations: an admin makes one; a device redeems it (no token yet) for a device token. */
import type { FastifyInstance } from 'fastify';
import { InviteRequestSchema, RedeemRequestSchema, ROUTES } from '../../../shared/sync/protocol.ts';
import type { AppContext } from '../../app.ts';
import { assertAdmin, authenticate } from '../../auth.ts';
import { createInvitation, redeemInvitation } from '../../workspace.ts';
import { parseWith } from '../parse.ts';

export function registerInvitationRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(ROUTES.redeem, async (req) => {
    const body = parseWith(RedeemRequestSchema, req.body, 'redeem request');
    return redeemInvitation(ctx.db, ctx.clock.now(), body.code, body.device);
  });
  app.post(ROUTES.invite, async (req, reply) => {
    const actor = await authenticate(ctx.db, req.headers.authorization);
    assertAdmin(actor);
    const body = parseWith(InviteRequestSchema, req.body ?? {}, 'invitation request');
    const now = ctx.clock.now();
    const invite = await ctx.db.transaction((tx) => createInvitation(tx, now, actor.user, body));
    return reply.status(201).send(invite);
  });
}
