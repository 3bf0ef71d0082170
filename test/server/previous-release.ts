/**
 * A server database of the previous release for [D4] in docs/SCHEMA.md (test/server/upgrade.test.ts):
 * migrated to every migration before 0004-authority and filled the way that release wrote it:
 * workspace, members, teams and devices through src/server/workspace.ts (their tables have not
 * changed since 0001), ops as src/server/sync/push.ts inserts them, and item and edge states with
 * the columns that release's saveItems and saveEdges wrote (src/server/sync/state.ts before 0004),
 * with their last-writer-wins guard.
 */

import type { Op } from '#shared/sync/protocol.ts';
import { MIGRATIONS } from '../../src/server/db/migrations/index.ts';
import { openPglite } from '../../src/server/db/pglite.ts';
import { openPostgres } from '../../src/server/db/pool.ts';
import type { Db } from '../../src/server/db/types.ts';
import { bodyHash, canonicalJson } from '../../src/server/sync/canonical.ts';
import {
  addTeamMember,
  createInvitation,
  ensureWorkspace,
  redeemInvitation,
} from '../../src/server/workspace.ts';
import {
  buildDecisionOp,
  buildEdgeOp,
  buildItemOp,
  buildProposalOp,
  hlc,
  proposalId,
  sha256,
  TEST_WORKSPACE,
} from './factories.ts';
import { startPostgres } from './postgres.ts';
import type { Backend } from './support.ts';

export const PREVIOUS = MIGRATIONS.filter((m) => m.id < '0004-authority');
export const AT = '2026-11-30T09:00:00.000Z';
const NOW = new Date(AT);

/** Ids as the previous release made them: not derived in a namespace ([S25] in docs/SYNC_SPEC.md). */
const oldId = (prefix: string, name: string) =>
  `${prefix}_${sha256(`previous release:${name}`).slice(0, 20)}`;
export const FILE = oldId('f', 'handbook');
export const SECTION = oldId('s', 'handbook#billing');
export const NOTE = oldId('n', 'deploys');
const BLOB = sha256('# Handbook\n\n## Billing\n');
const PROPOSAL = proposalId('upgrade');
export const note = { source_key: 'note:deploys', label: 'Deploys' };

const EDGE = buildEdgeOp(FILE, SECTION, 'org', {
  hlc: hlc(5),
  edge: { type: 'HAS_SECTION', origin_actor: 'dana' },
});

/** What the members pushed before the upgrade, in sequence order (seq = index + 1). */
export const PUSHED: { actor: 'admin' | 'dana'; op: Op }[] = [
  {
    actor: 'dana',
    op: buildItemOp(FILE, 'org', {
      hlc: hlc(1),
      item: {
        storage_kind: 'file',
        kind: 'markdown',
        source_key: 'file:/docs/handbook.md',
        blob: BLOB,
        origin_actor: 'dana',
      },
    }),
  },
  {
    actor: 'dana',
    op: buildItemOp(SECTION, 'org', {
      hlc: hlc(2),
      item: {
        storage_kind: 'section',
        kind: 'section',
        source_key: 'file:/docs/handbook.md#billing',
        file_id: FILE,
        origin_actor: 'dana',
      },
    }),
  },
  {
    actor: 'dana',
    op: buildItemOp(NOTE, 'team:eng', { hlc: hlc(3), item: { ...note, origin_actor: 'dana' } }),
  },
  // An admin's edit: the note's winning op (its origin now), while dana stays its creator.
  {
    actor: 'admin',
    op: buildItemOp(NOTE, 'team:eng', {
      hlc: hlc(4),
      item: { ...note, origin_actor: 'admin', body: 'Before noon.' },
    }),
  },
  { actor: 'dana', op: EDGE },
  { actor: 'dana', op: buildProposalOp(PROPOSAL, 'org', { hlc: hlc(6), by: 'dana' }) },
  { actor: 'admin', op: buildDecisionOp(PROPOSAL, 'org', { hlc: hlc(7) }) },
];

const entityOf = (op: Op) =>
  op.kind === 'item.upsert'
    ? op.item.id
    : op.kind === 'edge.upsert'
      ? op.edge.id
      : op.kind === 'proposal.upsert'
        ? op.proposal.id
        : op.kind === 'item.erase'
          ? op.itemId
          : op.proposalId;

/** A new, empty database on `backend`, not migrated. */
export async function openEmpty(backend: Backend): Promise<{ db: Db; close(): Promise<void> }> {
  if (backend.name === 'pglite') {
    const db = await openPglite(null);
    return { db, close: () => db.close() };
  }
  const pg = await startPostgres();
  if (!pg) throw new Error('no PostgreSQL');
  const db = await openPostgres(pg.url, 5);
  return {
    db,
    async close() {
      await db.close();
      await pg.stop();
    },
  };
}

/** The workspace, admin and dana (in team eng, with admin) and their devices; returns their tokens. */
export async function previousMembers(db: Db) {
  const code = await ensureWorkspace(db, NOW, 'Org Brain', TEST_WORKSPACE);
  if (!code) throw new Error('workspace not created');
  const admin = await redeemInvitation(db, NOW, code, 'admin-laptop');
  const invite = await db.transaction((tx) =>
    createInvitation(tx, NOW, 'admin', { admin: false, teams: ['eng'], user: 'dana' }),
  );
  const dana = await redeemInvitation(db, NOW, invite.code, 'dana-laptop');
  await addTeamMember(db, NOW, 'admin', 'eng', 'admin');
  const rows = await db.query<{ user_id: string; id: string }>('SELECT user_id, id FROM devices');
  return { admin: admin.token, dana: dana.token, devices: new Map(rows.map((r) => [r.user_id, r.id])) };
}

/** Ops, item and edge states, the proposal and deliveries, as the previous release wrote them. */
export async function writePrevious(db: Db, devices: Map<string, string>): Promise<void> {
  await db.transaction(async (tx) => {
    for (const [i, { actor, op }] of PUSHED.entries()) {
      const seq = i + 1;
      const body = canonicalJson(op);
      await tx.query(
        `INSERT INTO ops (seq, id, actor, device_id, kind, scope, entity_id, hlc, body_hash, body, received_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          seq,
          op.id,
          actor,
          devices.get(actor),
          op.kind,
          op.scope,
          entityOf(op),
          op.hlc,
          bodyHash(body),
          body,
          AT,
        ],
      );
      if (op.kind === 'item.upsert')
        await tx.query(
          `INSERT INTO items (id, scope, hlc, op_id, seq, blob) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (id) DO UPDATE SET scope = EXCLUDED.scope, hlc = EXCLUDED.hlc, op_id = EXCLUDED.op_id,
             seq = EXCLUDED.seq, blob = EXCLUDED.blob
           WHERE (items.hlc COLLATE "C", items.op_id COLLATE "C") < (EXCLUDED.hlc COLLATE "C", EXCLUDED.op_id COLLATE "C")`,
          [op.item.id, op.scope, op.hlc, op.id, seq, op.item.blob],
        );
      if (op.kind === 'edge.upsert')
        await tx.query(
          'INSERT INTO edges (id, scope, hlc, op_id, seq, from_id, to_id) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [op.edge.id, op.scope, op.hlc, op.id, seq, op.edge.from_id, op.edge.to_id],
        );
    }
    await tx.query(
      `INSERT INTO proposals (id, scope, state, created_by, created_seq, decided_by, decided_at, decided_seq)
       VALUES ($1, 'org', 'approved', 'dana', 6, 'admin', $2, 7)`,
      [PROPOSAL, AT],
    );
    // What dana's device was sent (pull.ts records deliveries per device).
    for (const entity of [FILE, SECTION, NOTE, EDGE.edge.id, PROPOSAL])
      await tx.query('INSERT INTO device_holdings (device_id, entity_id) VALUES ($1, $2)', [
        devices.get('dana'),
        entity,
      ]);
    await tx.query('UPDATE sync_state SET last_seq = $1 WHERE id = 1', [PUSHED.length]);
  });
}

const KEPT = [
  'workspace',
  'members',
  'teams',
  'team_members',
  'invitations',
  'devices',
  'audit_log',
  'sync_state',
  'ops',
  'proposals',
  'device_holdings',
  'pull_pages',
];

/** Every row 0004 must keep as it was: the tables it does not touch, and the old columns of items and edges. */
export async function dump(db: Db) {
  const out: Record<string, unknown[]> = {};
  for (const table of KEPT) out[table] = await db.query(`SELECT * FROM ${table} ORDER BY 1, 2`);
  out.items = await db.query('SELECT id, scope, hlc, op_id, seq, blob FROM items ORDER BY id');
  out.edges = await db.query('SELECT id, scope, hlc, op_id, seq, from_id, to_id FROM edges ORDER BY id');
  return out;
}
