/**
 * Acting as another member (`brain --as USER …`, `brain mcp --as USER`): for the local admin only,
 * and every use recorded in the admin's Activity ([R3] in docs/RETRIEVAL.md). A replica has its
 * own member, the one it acts as by default: the server's member once connected, else the local
 * user. Opening the engine as anyone else is acting as them, whatever the surface.
 *
 * Who is the local admin:
 *  - the OS account that owns the workspace folder (0700, rule [M1] in docs/SECURITY.md) is the
 *    only one that should be at this data at all; an account that reaches it otherwise (root, a
 *    loosened folder) does not get to act as its members;
 *  - and the replica's own member must be its admin: connected to a workspace server, a member
 *    the server made an admin (`sync_state.is_admin`, as for the review inbox); not connected,
 *    the workspace's first local user, the member it was made for (`BRAIN_USER` naming someone
 *    else on that account makes a plain member, who cannot act as others).
 */
import { statSync } from 'node:fs';
import { AppError } from '#shared/errors.ts';
import { type Db, stmt } from './db/driver.ts';
import { readState } from './sync/state.ts';
import { logEvent, type Surface } from './telemetry.ts';

/** Logged as event `act-as` under the acting admin (telemetry.ts), listed by `brain activity`. */
export type ActAsEventData = { as: string; by: string; command: string; surface: Surface };

/** The member the workspace was made for: the first user its database holds. */
export function firstLocalUser(db: Db): string | null {
  const row = stmt(db, 'SELECT id FROM users ORDER BY created_at, rowid LIMIT 1').get() as
    | { id: string }
    | undefined;
  return row?.id ?? null;
}

function ownsFolder(home: string): boolean {
  // Platforms without POSIX ids (Windows) keep the folder private by its ACL alone.
  if (typeof process.getuid !== 'function') return true;
  try {
    return statSync(home).uid === process.getuid();
  } catch {
    return false;
  }
}

/** Why `own` may not act as another member, or null when it may. */
function actingAsRefusal(db: Db, home: string, own: string): string | null {
  if (!ownsFolder(home)) {
    return `the workspace folder ${home} belongs to another account than the one running this command`;
  }
  const state = readState(db);
  if (state.server) {
    return state.is_admin === 1 ? null : `${own} is not an admin of the workspace server ${state.server}`;
  }
  const first = firstLocalUser(db);
  return first === own
    ? null
    : `the local admin is ${first ?? 'nobody'} (the workspace's first local user), not ${own}`;
}

/** Refuses with `forbidden` unless `own` is the local admin; never reveals whether `target` exists. */
export function assertMayActAs(db: Db, home: string, own: string, target: string): void {
  const refusal = actingAsRefusal(db, home, own);
  if (refusal) {
    throw new AppError(
      'forbidden',
      `Acting as another member (--as ${target}) is for the local admin only: ${refusal}.`,
    );
  }
}

/** One Activity entry for the admin: who acted as whom, through which command and surface. */
export function recordActingAs(db: Db, surface: Surface, data: Omit<ActAsEventData, 'surface'>): void {
  const entry: ActAsEventData = { ...data, surface };
  logEvent(db, surface, data.by, 'act-as', entry);
}
