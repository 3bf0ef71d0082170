/**
 * The workspace (one per server), its members, teams and invitations. Invitations are single use
 * and expire; redeeming one makes (or re-admits) the member, adds them to the invitation's teams
 * and issues a device token. Only hashes of codes and tokens are stored.
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '#shared/errors.ts';
import type { InviteResponse, RedeemResponse } from '#shared/sync/protocol.ts';
import { audit } from './audit.ts';
import type { Db, Queryable } from './db/types.ts';
import { forbidden, notFound } from './errors.ts';
import { newDeviceToken, newId, newInviteCode, sha256Hex } from './tokens.ts';

const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;
const FIRST_ADMIN = 'admin';

export type Workspace = { id: string; name: string };

export async function getWorkspace(db: Queryable): Promise<Workspace> {
  const rows = await db.query<Workspace>('SELECT id, name FROM workspace LIMIT 1');
  const ws = rows[0];
  if (!ws) throw new AppError('internal', 'This server has no workspace yet.');
  return ws;
}

/**
 * Creates the workspace on first start and returns one admin invitation for it; later starts
 * (and other processes racing on the same database) get null. `id` is for tests (ids derive from it).
 */
export async function ensureWorkspace(
  db: Db,
  at: Date,
  name = 'Org Brain',
  id = `w_${randomBytes(10).toString('hex')}`,
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const made = await tx.query(
      'INSERT INTO workspace (id, name, created_at) SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM workspace) RETURNING id',
      [id, name, at.toISOString()],
    );
    if (made.length === 0) return null;
    await audit(tx, { at: at.toISOString(), actor: null, action: 'workspace.create', subject: id });
    const invite = await createInvitation(tx, at, null, { admin: true, teams: [], user: FIRST_ADMIN });
    return invite.code;
  });
}

export type InviteInput = { admin: boolean; teams: string[]; user?: string | undefined };

export async function ensureTeam(
  tx: Queryable,
  team: string,
  at: string,
  actor: string | null,
): Promise<boolean> {
  const made = await tx.query(
    'INSERT INTO teams (id, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING id',
    [team, at],
  );
  if (made.length > 0) await audit(tx, { at, actor, action: 'team.create', subject: team });
  return made.length > 0;
}

export async function createInvitation(
  tx: Queryable,
  now: Date,
  actor: string | null,
  input: InviteInput,
): Promise<InviteResponse> {
  const at = now.toISOString();
  const code = newInviteCode();
  const expiresAt = new Date(now.getTime() + INVITE_TTL_MS).toISOString();
  const teams = [...new Set(input.teams)].sort();
  for (const team of teams) await ensureTeam(tx, team, at, actor);
  await tx.query(
    `INSERT INTO invitations (code_hash, user_id, is_admin, teams, created_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [sha256Hex(code), input.user ?? null, input.admin, JSON.stringify(teams), actor, at, expiresAt],
  );
  await audit(tx, {
    at,
    actor,
    action: 'invitation.create',
    subject: input.user ?? null,
    details: { admin: input.admin, teams, expiresAt },
  });
  return { code, user: input.user ?? null, expiresAt };
}

type InvitationRow = { user_id: string | null; is_admin: boolean; teams: string; expires_at: string };

async function admitMember(tx: Queryable, user: string, isAdmin: boolean, at: string): Promise<boolean> {
  const rows = await tx.query<{ is_admin: boolean }>(
    `INSERT INTO members (user_id, is_admin, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET is_admin = members.is_admin OR EXCLUDED.is_admin, removed_at = NULL
     RETURNING is_admin`,
    [user, isAdmin, at],
  );
  return rows[0]?.is_admin ?? isAdmin;
}

export async function redeemInvitation(
  db: Db,
  now: Date,
  code: string,
  device: string,
): Promise<RedeemResponse> {
  const at = now.toISOString();
  return db.transaction(async (tx) => {
    // Single use even under concurrent redemptions: the UPDATE claims the row or finds nothing.
    const rows = await tx.query<InvitationRow>(
      `UPDATE invitations SET redeemed_at = $2
       WHERE code_hash = $1 AND redeemed_at IS NULL AND expires_at > $2
       RETURNING user_id, is_admin, teams, expires_at`,
      [sha256Hex(code), at],
    );
    const inv = rows[0];
    if (!inv)
      throw forbidden('This invitation is unknown, already used or expired: ask an admin for a new one.');
    const user = inv.user_id ?? `member-${randomBytes(4).toString('hex')}`;
    const isAdmin = await admitMember(tx, user, inv.is_admin, at);
    const teams = JSON.parse(inv.teams) as string[];
    for (const team of teams) {
      await ensureTeam(tx, team, at, null);
      await tx.query(
        'INSERT INTO team_members (team_id, user_id, added_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [team, user, at],
      );
    }
    const token = newDeviceToken();
    const deviceId = newId('d');
    await tx.query(
      'INSERT INTO devices (id, token_hash, user_id, name, created_at) VALUES ($1, $2, $3, $4, $5)',
      [deviceId, sha256Hex(token), user, device, at],
    );
    await tx.query('UPDATE invitations SET redeemed_device = $2 WHERE code_hash = $1', [
      sha256Hex(code),
      deviceId,
    ]);
    await audit(tx, { at, actor: user, action: 'member.join', subject: user, details: { isAdmin, teams } });
    await audit(tx, {
      at,
      actor: user,
      action: 'token.issue',
      subject: user,
      details: { device: deviceId, name: device },
    });
    return { token, user, isAdmin, workspace: await getWorkspace(tx) };
  });
}

export async function addTeamMember(
  db: Db,
  now: Date,
  actor: string,
  team: string,
  user: string,
): Promise<void> {
  const at = now.toISOString();
  await db.transaction(async (tx) => {
    const member = await tx.query('SELECT 1 FROM members WHERE user_id = $1 AND removed_at IS NULL', [user]);
    if (member.length === 0) throw notFound(`No member ${user} in this workspace.`);
    const exists = await tx.query('SELECT 1 FROM teams WHERE id = $1', [team]);
    if (exists.length === 0) throw notFound(`No team ${team}: create it first.`);
    const added = await tx.query(
      'INSERT INTO team_members (team_id, user_id, added_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING team_id',
      [team, user, at],
    );
    if (added.length > 0)
      await audit(tx, { at, actor, action: 'team.member.add', subject: user, details: { team } });
  });
}

export async function removeTeamMember(
  db: Db,
  now: Date,
  actor: string,
  team: string,
  user: string,
): Promise<void> {
  const at = now.toISOString();
  await db.transaction(async (tx) => {
    const removed = await tx.query(
      'DELETE FROM team_members WHERE team_id = $1 AND user_id = $2 RETURNING team_id',
      [team, user],
    );
    if (removed.length === 0) throw notFound(`${user} is not a member of team ${team}.`);
    await audit(tx, { at, actor, action: 'team.member.remove', subject: user, details: { team } });
  });
}

/** Revokes every device token of the user, removes them from their teams and the workspace. */
export async function revokeMember(
  db: Db,
  now: Date,
  actor: string,
  user: string,
): Promise<{ devices: number }> {
  const at = now.toISOString();
  return db.transaction(async (tx) => {
    const member = await tx.query('SELECT 1 FROM members WHERE user_id = $1', [user]);
    if (member.length === 0) throw notFound(`No member ${user} in this workspace.`);
    const devices = await tx.query<{ id: string }>(
      'UPDATE devices SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL RETURNING id',
      [user, at],
    );
    const teams = await tx.query<{ team_id: string }>(
      'DELETE FROM team_members WHERE user_id = $1 RETURNING team_id',
      [user],
    );
    await tx.query('UPDATE members SET removed_at = $2, is_admin = FALSE WHERE user_id = $1', [user, at]);
    await tx.query(
      'DELETE FROM device_holdings WHERE device_id IN (SELECT id FROM devices WHERE user_id = $1)',
      [user],
    );
    await audit(tx, {
      at,
      actor,
      action: 'token.revoke',
      subject: user,
      details: { devices: devices.map((d) => d.id) },
    });
    await audit(tx, {
      at,
      actor,
      action: 'member.remove',
      subject: user,
      details: { teams: teams.map((t) => t.team_id) },
    });
    return { devices: devices.length };
  });
}
