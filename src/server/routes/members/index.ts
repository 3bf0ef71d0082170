/** Who am I, who is in the workspace, and revocation (admin). */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../shared/errors.ts';
import type { MembersResponse, MeResponse } from '../../../shared/sync/protocol.ts';
import { ROUTES } from '../../../shared/sync/protocol.ts';
import type { AppContext } from '../../app.ts';
import { assertAdmin, authenticate } from '../../auth.ts';
import type { Queryable } from '../../db/types.ts';
import { userTeams, visibleScopes } from '../../scopes.ts';
import { getWorkspace, revokeMember } from '../../workspace.ts';
import { parseWith, routePattern } from '../parse.ts';
import { UserParamSchema } from './schema.ts';

async function listMembers(db: Queryable): Promise<MembersResponse> {
  const members = await db.query<{ user_id: string; is_admin: boolean; devices: number | string }>(
    `SELECT m.user_id, m.is_admin,
       (SELECT count(*) FROM devices d WHERE d.user_id = m.user_id AND d.revoked_at IS NULL) AS devices
     FROM members m WHERE m.removed_at IS NULL ORDER BY m.user_id`,
  );
  const links = await db.query<{ team_id: string; user_id: string }>(
    'SELECT team_id, user_id FROM team_members ORDER BY team_id, user_id',
  );
  const teams = await db.query<{ id: string }>('SELECT id FROM teams ORDER BY id');
  return {
    members: members.map((m) => ({
      user: m.user_id,
      isAdmin: m.is_admin,
      teams: links.filter((l) => l.user_id === m.user_id).map((l) => l.team_id),
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
    const actor = await authenticate(ctx.db, req.headers.authorization);
    return {
      user: actor.user,
      isAdmin: actor.isAdmin,
      teams: await userTeams(ctx.db, actor.user),
      scopes: await visibleScopes(ctx.db, actor.user),
      workspace: await getWorkspace(ctx.db),
    };
  });
  app.get(ROUTES.members, async (req) => {
    await authenticate(ctx.db, req.headers.authorization);
    return listMembers(ctx.db);
  });
  app.post(routePattern(ROUTES.revoke, 'user'), async (req) => {
    const actor = await authenticate(ctx.db, req.headers.authorization);
    assertAdmin(actor);
    const { user } = parseWith(UserParamSchema, req.params, 'user');
    if (user === actor.user) throw new AppError('refused', 'You cannot revoke yourself: ask another admin.');
    const result = await revokeMember(ctx.db, ctx.clock.now(), actor.user, user);
    return { user, revokedDevices: result.devices };
  });
}
