/**
 * A replica told its token was revoked (docs/SYNC_SPEC.md [S32]) removes what it received from the
 * workspace: every item, edge and review proposal a pull wrote (`sync_received`), their search
 * entries, and the bytes no item kept here still references. What was only ever made on this
 * replica stays. The connection is forgotten (token, cursor, outbox), and the replica says so.
 */
import { rmSync } from 'node:fs';
import type { BlobStore } from '../add/blobs.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import { evictEdge, evictItem } from './apply.ts';
import { evictProposal } from './apply-proposals.ts';

export type RevokedResult = { items: number; edges: number; proposals: number; blobs: number };

const SYNC_TABLES = [
  'sync_outbox',
  'sync_changes',
  'sync_versions',
  'sync_blobs_wanted',
  'sync_early_decisions',
  'sync_received',
  'sync_set_aside',
];

export function revokedMessage(server: string | null, r: RevokedResult): string {
  return `This device was revoked by the workspace server${server ? ` at ${server}` : ''}: ${r.items} items, ${r.edges} links and ${r.proposals} proposals received from it were removed from this replica; what was made only here is kept.`;
}

export function forgetReceived(db: Db, blobs: BlobStore): RevokedResult {
  const result: RevokedResult = { items: 0, edges: 0, proposals: 0, blobs: 0 };
  const hashes = new Set<string>();
  writeTx(db, () => {
    const server = (stmt(db, 'SELECT server FROM sync_state WHERE id = 1').get() as { server: string | null })
      .server;
    // Nothing removed here is a change to send.
    stmt(db, 'UPDATE sync_state SET server = NULL WHERE id = 1').run();
    const received = stmt(db, 'SELECT kind, ref FROM sync_received ORDER BY kind').all() as {
      kind: 'item' | 'edge' | 'proposal';
      ref: string;
    }[];
    for (const { kind, ref } of received) {
      if (kind === 'item') {
        const blob = stmt(db, 'SELECT blob FROM items WHERE id = ?').get(ref) as
          | { blob: string | null }
          | undefined;
        if (blob?.blob) hashes.add(blob.blob);
        if (evictItem(db, ref)) result.items += 1;
      } else if (kind === 'edge') {
        if (evictEdge(db, ref)) result.edges += 1;
      } else if (evictProposal(db, ref)) result.proposals += 1;
    }
    for (const hash of [...hashes]) {
      if (stmt(db, 'SELECT 1 FROM items WHERE blob = ? LIMIT 1').get(hash)) hashes.delete(hash);
    }
    for (const table of SYNC_TABLES) db.prepare(`DELETE FROM ${table}`).run();
    db.prepare(
      `UPDATE sync_state SET user_id = NULL, is_admin = 0, workspace_name = NULL, cursor = 0, pull_page = NULL,
       teams = '[]', connected_at = NULL, is_online = NULL, last_error = ? WHERE id = 1`,
    ).run(revokedMessage(server, result));
  });
  // The bytes go after the commit: a crash in between leaves only unreferenced files behind.
  for (const hash of hashes) {
    rmSync(blobs.path(hash), { force: true });
    result.blobs += 1;
  }
  return result;
}
