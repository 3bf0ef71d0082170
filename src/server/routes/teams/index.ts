/** Teams (admin): create one, add or remove a member. Membership changes are audited. */
import type { FastifyInstance } from 'fastify';
import { ROUTES, TeamCreateRequestSchema, TeamMemberRequestSchema } from '#shared/sync/protocol.ts';
import type { AppContext } from '../../app.ts';
import { actorOf, assertAdmin } from '../../auth.ts';
import { addTeamMember, ensureTeam, removeTeamMember } from '../../workspace.ts';
import { parseWith, routePattern } from '../parse.ts';
import { TeamMemberParamsSchema, TeamParamSchema } from './schema.ts';

export function registerTeamRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(ROUTES.teams, async (req, reply) => {
    const actor = actorOf(req);
    assertAdmin(actor);
    const { id } = parseWith(TeamCreateRequestSchema, req.body, 'team');
    const at = ctx.clock.now().toISOString();
    const created = await ctx.db.transaction((tx) => ensureTeam(tx, id, at, actor.user));
    return reply.status(created ? 201 : 200).send({ id, created });
  });
  app.post(routePattern(ROUTES.teamMembers, 'team'), async (req) => {
    const actor = actorOf(req);
    assertAdmin(actor);
    const { team } = parseWith(TeamParamSchema, req.params, 'team');
    const { user } = parseWith(TeamMemberRequestSchema, req.body, 'team member');
    await addTeamMember(ctx.db, ctx.clock.now(), actor.user, team, user);
    return { team, user };
  });
  app.delete(`${routePattern(ROUTES.teamMembers, 'team')}/:user`, async (req) => {
    const actor = actorOf(req);
    assertAdmin(actor);
    const { team, user } = parseWith(TeamMemberParamsSchema, req.params, 'team member');
    await removeTeamMember(ctx.db, ctx.clock.now(), actor.user, team, user);
    return { team, user };
  });
}
