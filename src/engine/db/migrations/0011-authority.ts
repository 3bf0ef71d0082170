/**
 * Sync protocol 2, where the workspace server is the authority (docs/SYNC_SPEC.md [S24]–[S32]):
 * - `sync_set_aside`: pulled operations of kinds this version does not know, kept, never applied ([S30]);
 * - `sync_received`: what this replica received from the server, removed if it is revoked ([S32]);
 * - ids: items get the ids protocol 2 derives (src/shared/ids.ts, [S25]): a file's or note's id
 *   in its creator's namespace, a section's under its file's id, an edge's from its ends. A
 *   replica connected to a server of protocol 1 is disconnected: that server's ids are the old
 *   ones, so it connects again (to an upgraded server) with a new invitation, and says so.
 */
import type Database from 'better-sqlite3';
import { rekeyReplica } from '#engine/sync/rekey.ts';

export const sql = `
CREATE TABLE sync_set_aside (
  seq INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  actor TEXT NOT NULL,
  body TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE TABLE sync_received (
  kind TEXT NOT NULL CHECK (kind IN ('item', 'edge', 'proposal')),
  ref TEXT NOT NULL,
  PRIMARY KEY (kind, ref)
) WITHOUT ROWID;
`;

const DISCONNECTED_BY_UPGRADE =
  'Org Brain was updated to sync protocol 2, which the old server does not speak: this replica was disconnected (its items stay here). Connect again with a new invitation: `brain connect <server-url> --invite CODE`.';

const SYNC_TABLES = [
  'sync_outbox',
  'sync_changes',
  'sync_versions',
  'sync_blobs_wanted',
  'sync_early_decisions',
];

export function run(db: Database.Database): void {
  const state = db.prepare('SELECT server, user_id FROM sync_state WHERE id = 1').get() as {
    server: string | null;
    user_id: string | null;
  };
  const first = db.prepare('SELECT id FROM users ORDER BY created_at, id LIMIT 1').get() as
    | { id: string }
    | undefined;
  const user = state.user_id ?? first?.id;
  if (state.server) {
    // Quiet the outbox triggers first: re-keying is not a change to send.
    for (const table of SYNC_TABLES) db.prepare(`DELETE FROM ${table}`).run();
    db.prepare(
      `UPDATE sync_state SET server = NULL, is_admin = 0, workspace_name = NULL, cursor = 0, pull_page = NULL,
       teams = '[]', connected_at = NULL, is_online = NULL, last_error = ? WHERE id = 1`,
    ).run(DISCONNECTED_BY_UPGRADE);
  }
  if (!user) return;
  const ws = db.prepare("SELECT value FROM meta WHERE key = 'workspace_id'").get() as
    | { value: string }
    | undefined;
  if (!ws) return;
  rekeyReplica(db, { workspaceId: ws.value, fromUser: user, toUser: user, force: true });
}
