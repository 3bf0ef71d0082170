/**
 * Who am I, who is in the workspace, and revocation (admin). A member sees the teams they belong
 * to and those teams' members (and themselves); admins see everyone ([S33]).
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '#shared/errors.ts';
import type { MembersResponse, MeResponse } from '#shared/sync/protocol.ts';
import { ROUTES } from '#shared/sync/protocol.ts';
import type { AppContext } from '../../app.ts';
import { type Actor, actorOf, assertAdmin } from '../../auth.ts';
import type { Queryable } from '../../db/types.ts';
import { userTeams, visibleScopes } from '../../scopes.ts';
import { getWorkspace, revokeMember } from '../../workspace.ts';
import { parseWith, routePattern } from '../parse.ts';
import { UserParamSchema } from './schema.ts';

async function listMembers(db: Queryable, actor: Actor): Promise<MembersResponse> {
  const members = await db.query<{ user_id: string; is_admin: boolean; devices: number | string }>(
    `SELECT m.user_id, m.is_admin,
       (SELECT count(*) FROM devices d WHERE d.user_id = m.user_id AND d.revoked_at IS NULL) AS devices
     FROM members m WHERE m.removed_at IS NULL ORDER BY m.user_id`,
  );
  const links = await db.query<{ team_id: string; user_id: string }>(
    'SELECT team_id, user_id FROM team_members ORDER BY team_id, user_id',
  );
  const allTeams = await db.query<{ id: string }>('SELECT id FROM teams ORDER BY id');
  const mine = new Set(links.filter((l) => l.user_id === actor.user).map((l) => l.team_id));
  const teams = actor.isAdmin ? allTeams : allTeams.filter((t) => mine.has(t.id));
  const seen = new Set(
    links
      .filter((l) => mine.has(l.team_id))
      .map((l) => l.user_id)
      .concat(actor.user),
  );
  const shown = actor.isAdmin ? members : members.filter((m) => seen.has(m.user_id));
  // Teams are named only when the viewer may see them.
  const teamOf = (user: string) =>
    links.filter((l) => l.user_id === user && (actor.isAdmin || mine.has(l.team_id))).map((l) => l.team_id);
  return {
    members: shown.map((m) => ({
      user: m.user_id,
      isAdmin: m.is_admin,
      teams: teamOf(m.user_id),
      devices: Number(m.devices),
    })),
    teams: teams.map((t) => ({
      id: t.id,
      members: links.filter((l) => l.team_id === t.id).map((l) => l.user_id),
    })),
  };
}

export function registerMemberRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(ROUTES.me, async (req): Promise<MeResponse> => {
    const actor = actorOf(req);
    return {
      user: actor.user,
      isAdmin: actor.isAdmin,
      teams: await userTeams(ctx.db, actor.user),
      scopes: await visibleScopes(ctx.db, actor.user),
      workspace: await getWorkspace(ctx.db),
    };
  });
  app.get(ROUTES.members, async (req) => {
    return listMembers(ctx.db, actorOf(req));
  });
  app.post(routePattern(ROUTES.revoke, 'user'), async (req) => {
    const actor = actorOf(req);
    assertAdmin(actor);
    const { user } = parseWith(UserParamSchema, req.params, 'user');
    if (user === actor.user) throw new AppError('refused', 'You cannot revoke yourself: ask another admin.');
    const result = await revokeMember(ctx.db, ctx.clock.now(), actor.user, user);
    return { user, revokedDevices: result.devices };
  });
}
