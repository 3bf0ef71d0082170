/**
 * Device tokens: `Authorization: Bearer <token>`, looked up by sha256. The actor of every write is
 * the token's user, never anything the client says about itself.
 */
import type { Queryable } from './db/types.ts';
import { forbidden, unauthorized } from './errors.ts';
import { sha256Hex } from './tokens.ts';

export type Actor = { user: string; deviceId: string; isAdmin: boolean };

export function bearerToken(header: string | undefined): string | null {
  if (!header?.startsWith('Bearer ')) return null;
  const token = header.slice(7).trim();
  return token.length > 0 ? token : null;
}

type DeviceRow = {
  id: string;
  user_id: string;
  revoked_at: string | null;
  is_admin: boolean;
  removed_at: string | null;
};

export async function authenticate(db: Queryable, header: string | undefined): Promise<Actor> {
  const token = bearerToken(header);
  if (!token)
    throw unauthorized('Missing device token: send Authorization: Bearer <token> (from `brain connect`).');
  const rows = await db.query<DeviceRow>(
    `SELECT d.id, d.user_id, d.revoked_at, m.is_admin, m.removed_at
     FROM devices d JOIN members m ON m.user_id = d.user_id WHERE d.token_hash = $1`,
    [sha256Hex(token)],
  );
  const row = rows[0];
  if (!row) throw unauthorized('Unknown device token: connect this replica again with an invitation.');
  if (row.revoked_at || row.removed_at) {
    throw unauthorized(
      `This device token was revoked (${row.revoked_at ?? row.removed_at}): ask an admin for a new invitation.`,
    );
  }
  return { user: row.user_id, deviceId: row.id, isAdmin: row.is_admin };
}

export function assertAdmin(actor: Actor): void {
  if (!actor.isAdmin) throw forbidden(`${actor.user} is not an admin of this workspace.`);
}
