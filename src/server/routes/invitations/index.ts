/** Invitations: an admin makes one; a device redeems it (no token yet) for a device token. */
import type { FastifyInstance } from 'fastify';
import { InviteRequestSchema, RedeemRequestSchema, ROUTES } from '#shared/sync/protocol.ts';
import type { AppContext } from '../../app.ts';
import { actorOf, assertAdmin, assertProtocol } from '../../auth.ts';
import { createInvitation, redeemInvitation } from '../../workspace.ts';
import { parseWith } from '../parse.ts';

/** Redemption is the one route without a token (the replica has none yet); it checks the protocol. */
export function registerRedeemRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(ROUTES.redeem, async (req) => {
    assertProtocol(req);
    const body = parseWith(RedeemRequestSchema, req.body, 'redeem request');
    return redeemInvitation(ctx.db, ctx.clock.now(), body.code, body.device);
  });
}

/** Making an invitation (admins), behind the authentication hook. */
export function registerInviteRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(ROUTES.invite, async (req, reply) => {
    const actor = actorOf(req);
    assertAdmin(actor);
    const body = parseWith(InviteRequestSchema, req.body ?? {}, 'invitation request');
    const now = ctx.clock.now();
    const invite = await ctx.db.transaction((tx) => createInvitation(tx, now, actor.user, body));
    return reply.status(201).send(invite);
  });
}
