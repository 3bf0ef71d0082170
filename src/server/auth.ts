/**
 * Device tokens: `Authorization: Bearer <token>`, looked up by sha256 ([S1]). The actor of every
 * request is the token's member, never anything the client says about itself ([S2]). Every route
 * but health, ready and redemption is authenticated by one hook before its handler runs, which
 * also checks the protocol version the replica speaks ([S31]).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '#shared/errors.ts';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '#shared/sync/protocol.ts';
import type { Queryable } from './db/types.ts';
import { forbidden, unauthorized } from './errors.ts';
import { sha256Hex } from './tokens.ts';

export type Actor = { user: string; deviceId: string; isAdmin: boolean };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook on every authenticated route. */
    actor: Actor | null;
  }
}

/** The token of an `Authorization: Bearer …` header; the scheme is matched in any case (RFC 9110 §11.1). */
function bearerToken(header: string | undefined): string | null {
  if (!header || !/^bearer /i.test(header)) return null;
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

async function authenticate(db: Queryable, header: string | undefined): Promise<Actor> {
  const token = bearerToken(header);
  if (!token)
    throw unauthorized(
      'Missing device token: send Authorization: Bearer <token> (from `brain connect`).',
      'missing',
    );
  const rows = await db.query<DeviceRow>(
    `SELECT d.id, d.user_id, d.revoked_at, m.is_admin, m.removed_at
     FROM devices d JOIN members m ON m.user_id = d.user_id WHERE d.token_hash = $1`,
    [sha256Hex(token)],
  );
  const row = rows[0];
  if (!row)
    throw unauthorized('Unknown device token: connect this replica again with an invitation.', 'unknown');
  if (row.revoked_at || row.removed_at) {
    throw unauthorized(
      `This device token was revoked (${row.revoked_at ?? row.removed_at}): ask an admin for a new invitation.`,
      'revoked',
    );
  }
  return { user: row.user_id, deviceId: row.id, isAdmin: row.is_admin };
}

/** [S31] A replica that speaks an older protocol (or says none) is told to update. */
export function assertProtocol(req: FastifyRequest): void {
  const said = Number(req.headers[PROTOCOL_HEADER] ?? 0);
  if (Number.isInteger(said) && said >= PROTOCOL_VERSION) return;
  throw new AppError(
    'unsupported',
    `This workspace server speaks sync protocol ${PROTOCOL_VERSION} and this Org Brain speaks ${
      said > 0 ? said : 'an older one'
    }: update Org Brain on this device.`,
    { status: 426 },
  );
}

/** The preHandler of authenticated routes: protocol, then token; the actor lands on the request. */
export function authHook(db: Queryable) {
  return async (req: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    assertProtocol(req);
    req.actor = await authenticate(db, req.headers.authorization);
  };
}

/** The authenticated actor of a request (routes registered behind authHook). */
export function actorOf(req: FastifyRequest): Actor {
  if (!req.actor) throw new AppError('internal', 'route registered without authentication');
  return req.actor;
}

export function assertAdmin(actor: Actor): void {
  if (!actor.isAdmin) throw forbidden(`${actor.user} is not an admin of this workspace.`);
}
