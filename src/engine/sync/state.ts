/**
 * What this replica knows about its server: the connection (sync_state), the device token (a
 * file in the workspace folder readable only by the user, never the database) and the status
 * the app's status bar and `brain status` show.
 */
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SyncStatusView } from '#shared/api/types.ts';
import { type Db, stmt } from '../db/driver.ts';
import { pendingCount } from './outbox.ts';

/** The sync state shown by `brain status` and the app (one shape for both). */
export type SyncStatus = SyncStatusView;

type StateRow = {
  server: string | null;
  user_id: string | null;
  is_admin: number;
  workspace_name: string | null;
  cursor: number;
  /** The last pulled page committed here, sent as `ack` on the next pull ([S19]). */
  pull_page: string | null;
  teams: string;
  last_attempt: string | null;
  last_sync: string | null;
  is_online: number | null;
  last_error: string | null;
};

export function readState(db: Db): StateRow {
  return stmt(db, 'SELECT * FROM sync_state WHERE id = 1').get() as StateRow;
}

export function syncStatus(db: Db): SyncStatus {
  const s = readState(db);
  const refused = stmt(db, 'SELECT COUNT(*) AS n FROM sync_refused').get() as { n: number };
  const lastRefused = stmt(
    db,
    'SELECT kind, ref, reason, at FROM sync_refused ORDER BY id DESC LIMIT 1',
  ).get() as SyncStatus['lastRefused'] | undefined;
  const setAside = stmt(db, 'SELECT COUNT(*) AS n FROM sync_set_aside').get() as { n: number };
  return {
    connected: s.server !== null,
    server: s.server,
    user: s.user_id,
    isAdmin: s.is_admin === 1,
    workspace: s.workspace_name,
    state: s.is_online === null ? null : s.is_online === 1 ? 'online' : 'offline',
    lastAttempt: s.last_attempt,
    lastSync: s.last_sync,
    pending: pendingCount(db),
    cursor: s.cursor,
    lastError: s.last_error,
    refused: refused.n,
    lastRefused: lastRefused ?? null,
    setAside: setAside.n,
  };
}

/** The member this replica acts as once connected (null before). */
export function connectedUser(db: Db): string | null {
  const row = stmt(db, 'SELECT user_id FROM sync_state WHERE id = 1 AND server IS NOT NULL').get() as
    | { user_id: string | null }
    | undefined;
  return row?.user_id ?? null;
}

export function recordAttempt(
  db: Db,
  outcome: { online: boolean; error: string | null; synced: boolean },
): void {
  const now = new Date().toISOString();
  stmt(
    db,
    `UPDATE sync_state SET last_attempt = ?, is_online = ?, last_error = ?,
     last_sync = CASE WHEN ? THEN ? ELSE last_sync END WHERE id = 1`,
  ).run(now, outcome.online ? 1 : 0, outcome.error, outcome.synced ? 1 : 0, now);
}

const TOKEN_FILE = 'sync-token';

function tokenPath(home: string): string {
  return join(home, TOKEN_FILE);
}

export function writeToken(home: string, token: string): void {
  const path = tokenPath(home);
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  chmodSync(path, 0o600); // an existing file keeps its old mode on write
}

export function readToken(home: string): string | null {
  const path = tokenPath(home);
  if (!existsSync(path)) return null;
  return readFileSync(path, 'utf8').trim() || null;
}

export function removeToken(home: string): void {
  rmSync(tokenPath(home), { force: true });
}
