/**
 * Pull: a page of what the device should apply next, rules [S10]–[S14], [S19], for review
 * proposals [S22] and for erased sources [S36] in docs/SYNC_SPEC.md.
 *
 * Visibility is decided against the *current* state: an item is visible when its current scope is
 * one the user sees; an edge when its own scope and both ends are; an op when its scope is
 * visible and the item or edge it touches is. The server remembers per device which items and
 * edges it has delivered (`device_holdings`). Each page then:
 *   1. evicts: held ids no longer visible (scope narrowed, user left a team) are listed in
 *      `evict` and forgotten;
 *   2. backfills: visible items and edges the device does not hold whose winning op is at or
 *      before the cursor (the user joined a team, an item moved into a visible scope) are
 *      delivered with their winning op, which may carry a seq <= `after`;
 *   3. delivers visible ops after the cursor, in sequence order.
 * Both changes to `device_holdings` are kept undoable until the replica acknowledges the page
 * ([S19]): every answer has a `page` id, and `pull_pages` records per device the last answered
 * page with the ids it evicted and the ids it newly added. The next pull either acknowledges it
 * (`ack` equals its id: the record is dropped) or does not (the replica died before committing
 * it): the page is undone first (evicted ids held again, as stale, added ids dropped), so its
 * evictions and backfill are computed and sent again. A request without `ack` (an old client, or a replica
 * that never committed a page) undoes it only when it repeats the page's `after` and the page
 * moved the cursor, the one case where the page certainly was not applied; otherwise it counts
 * as acknowledged, as before (undoing there would send a backfill page again and again).
 *
 * An erased source reaches every device that held any part of it: its erase op comes first in the
 * page, whatever the cursor, and the holding is dropped (kept in the page record like an eviction,
 * so an unacknowledged page sends it again).
 *
 * Proposals are held like items (by their id, once their creation was delivered): a held proposal
 * whose scope the user no longer sees is evicted, and a visible one the device does not hold is
 * backfilled as a unit, its creation and (when it is at or before the cursor) its decision, never
 * split across pages, so a decision is never left behind the cursor.
 */
import { randomUUID } from 'node:crypto';
import { type Op, PULL_MAX_OPS, type PulledOp, type PullResponse } from '#shared/sync/protocol.ts';
import type { Actor } from '../auth.ts';
import type { Db, Queryable } from '../db/types.ts';
import { visibleScopes } from '../scopes.ts';
import { erasuresFor } from './erase.ts';

type OpRow = { seq: number | string; actor: string; body: string; kind: string; entity_id: string | null };

// A holding that owes an erase is no eviction: the erase is sent, whatever the scope ([S36]).
const EVICT_SQL = `
  SELECT h.entity_id AS id FROM device_holdings h JOIN items i ON i.id = h.entity_id
  WHERE h.device_id = $1 AND h.erase_seq IS NULL AND NOT (i.scope = ANY($2::text[]))
  UNION ALL
  SELECT h.entity_id AS id FROM device_holdings h JOIN edges e ON e.id = h.entity_id
    JOIN items a ON a.id = e.from_id JOIN items b ON b.id = e.to_id
  WHERE h.device_id = $1
    AND NOT (e.scope = ANY($2::text[]) AND a.scope = ANY($2::text[]) AND b.scope = ANY($2::text[]))
  UNION ALL
  SELECT h.entity_id AS id FROM device_holdings h JOIN proposals p ON p.id = h.entity_id
  WHERE h.device_id = $1 AND NOT (p.scope = ANY($2::text[]))`;

const BACKFILL_SQL = `
  SELECT o.seq, o.actor, o.body, o.kind, o.entity_id FROM items i JOIN ops o ON o.seq = i.seq
  WHERE i.scope = ANY($2::text[]) AND i.seq <= $3
    AND NOT EXISTS (SELECT 1 FROM device_holdings h WHERE h.device_id = $1 AND h.entity_id = i.id AND NOT h.stale)
  UNION ALL
  SELECT o.seq, o.actor, o.body, o.kind, o.entity_id FROM edges e JOIN ops o ON o.seq = e.seq
    JOIN items a ON a.id = e.from_id JOIN items b ON b.id = e.to_id
  WHERE e.scope = ANY($2::text[]) AND a.scope = ANY($2::text[]) AND b.scope = ANY($2::text[]) AND e.seq <= $3
    AND NOT EXISTS (SELECT 1 FROM device_holdings h WHERE h.device_id = $1 AND h.entity_id = e.id AND NOT h.stale)
  ORDER BY seq LIMIT $4`;

/** Visible proposals the device does not hold, created at or before the cursor, oldest first. */
const PROPOSAL_BACKFILL_SQL = `
  SELECT p.id, p.created_seq, p.decided_seq FROM proposals p
  WHERE p.scope = ANY($2::text[]) AND p.created_seq <= $3
    AND NOT EXISTS (SELECT 1 FROM device_holdings h WHERE h.device_id = $1 AND h.entity_id = p.id AND NOT h.stale)
  ORDER BY p.created_seq LIMIT $4`;

const OPS_BY_SEQ_SQL = `
  SELECT o.seq, o.actor, o.body, o.kind, o.entity_id FROM ops o WHERE o.seq = ANY($1::bigint[]) ORDER BY o.seq`;

const WINDOW_SQL = `
  SELECT o.seq, o.actor, o.body, o.kind, o.entity_id FROM ops o
    LEFT JOIN items i ON o.kind = 'item.upsert' AND i.id = o.entity_id
    LEFT JOIN edges e ON o.kind = 'edge.upsert' AND e.id = o.entity_id
    LEFT JOIN items a ON a.id = e.from_id
    LEFT JOIN items b ON b.id = e.to_id
  WHERE o.seq > $1 AND o.seq <= $2 AND o.scope = ANY($3::text[])
    AND ((o.kind = 'item.upsert' AND i.scope = ANY($3::text[]))
      OR (o.kind = 'edge.upsert' AND e.scope = ANY($3::text[]) AND a.scope = ANY($3::text[])
          AND b.scope = ANY($3::text[]))
      OR o.kind IN ('proposal.upsert', 'proposal.decide'))
  ORDER BY o.seq LIMIT $4`;

function toPulled(r: OpRow): PulledOp {
  return { seq: Number(r.seq), actor: r.actor, op: JSON.parse(r.body) as Op };
}

async function evict(tx: Queryable, deviceId: string, visible: string[]): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(EVICT_SQL, [deviceId, visible]);
  const ids = [...new Set(rows.map((r) => r.id))].sort();
  if (ids.length > 0) {
    await tx.query('DELETE FROM device_holdings WHERE device_id = $1 AND entity_id = ANY($2::text[])', [
      deviceId,
      ids,
    ]);
  }
  return ids;
}

/**
 * Proposal units to backfill within `room` ops: each unit is a creation and, when it is at or
 * before `upTo`, its decision (a later decision comes in the window). `more` when some did not fit.
 */
async function backfillProposals(
  tx: Queryable,
  deviceId: string,
  visible: string[],
  upTo: number,
  room: number,
): Promise<{ rows: OpRow[]; more: boolean }> {
  const units = Math.floor(room / 2);
  const picked = await tx.query<{
    id: string;
    created_seq: number | string;
    decided_seq: number | string | null;
  }>(PROPOSAL_BACKFILL_SQL, [deviceId, visible, upTo, units + 1]);
  const more = picked.length > units;
  const seqs: number[] = [];
  for (const p of picked.slice(0, units)) {
    seqs.push(Number(p.created_seq));
    if (p.decided_seq !== null && Number(p.decided_seq) <= upTo) seqs.push(Number(p.decided_seq));
  }
  const rows = seqs.length > 0 ? await tx.query<OpRow>(OPS_BY_SEQ_SQL, [seqs]) : [];
  return { rows, more };
}

const HELD_KINDS = new Set(['item.upsert', 'edge.upsert', 'proposal.upsert', 'proposal.decide']);

/**
 * Holds the items, edges and proposals of `rows`: `added`, the ids the device did not hold before;
 * `unstaled`, those it held as stale ([S34]) and now receives again.
 */
async function hold(
  tx: Queryable,
  deviceId: string,
  rows: readonly OpRow[],
): Promise<{ added: string[]; unstaled: string[] }> {
  const ids = [...new Set(rows.filter((r) => HELD_KINDS.has(r.kind)).map((r) => r.entity_id ?? ''))];
  if (ids.length === 0) return { added: [], unstaled: [] };
  const unstaled = await tx.query<{ entity_id: string }>(
    `UPDATE device_holdings SET stale = false WHERE device_id = $1 AND stale AND entity_id = ANY($2::text[])
     RETURNING entity_id`,
    [deviceId, ids],
  );
  const added = await tx.query<{ entity_id: string }>(
    `INSERT INTO device_holdings (device_id, entity_id) SELECT $1, x FROM unnest($2::text[]) AS t(x)
     ON CONFLICT DO NOTHING RETURNING entity_id`,
    [deviceId, ids],
  );
  return { added: added.map((r) => r.entity_id), unstaled: unstaled.map((r) => r.entity_id) };
}

type PendingPage = {
  page_id: string;
  evicted: string;
  held: string;
  unstaled: string;
  unerased: string;
  after_seq: number | string;
  cursor_seq: number | string;
};

/**
 * Settles the device's last answered page ([S19]): forgets it when acknowledged, otherwise
 * restores `device_holdings` as it was before that page (the erases it sent are owed again).
 */
async function settlePending(
  tx: Queryable,
  deviceId: string,
  after: number,
  ack: string | null,
): Promise<void> {
  const rows = await tx.query<PendingPage>(
    `SELECT page_id, evicted, held, unstaled, unerased, after_seq, cursor_seq FROM pull_pages
     WHERE device_id = $1 FOR UPDATE`,
    [deviceId],
  );
  const pending = rows[0];
  if (!pending) return;
  await tx.query('DELETE FROM pull_pages WHERE device_id = $1', [deviceId]);
  if (ack === pending.page_id) return;
  const pendingAfter = Number(pending.after_seq);
  if (ack === null && !(after === pendingAfter && Number(pending.cursor_seq) > pendingAfter)) return;
  const evicted = JSON.parse(pending.evicted) as string[];
  const held = JSON.parse(pending.held) as string[];
  const unstaled = JSON.parse(pending.unstaled) as string[];
  if (unstaled.length > 0) {
    await tx.query(
      'UPDATE device_holdings SET stale = true WHERE device_id = $1 AND entity_id = ANY($2::text[])',
      [deviceId, unstaled],
    );
  }
  if (held.length > 0) {
    await tx.query('DELETE FROM device_holdings WHERE device_id = $1 AND entity_id = ANY($2::text[])', [
      deviceId,
      held,
    ]);
  }
  if (evicted.length > 0) {
    // [S19], [S34] in docs/SYNC_SPEC.md: an eviction not applied leaves the device with its copy,
    // which need not be the server's: a refused change of it (pushed before this page, when the
    // refusal marked the holding stale and this page's eviction then dropped the mark, or while
    // this page was unanswered, when there was no holding to mark) is still there. Held again as
    // stale, so a pull in which the user may see it sends the winning op again, and one in which
    // they may not evicts it again. (A holding a push has written since, its op having won, stays.)
    await tx.query(
      `INSERT INTO device_holdings (device_id, entity_id, stale) SELECT $1, x, true FROM unnest($2::text[]) AS t(x)
       ON CONFLICT DO NOTHING`,
      [deviceId, evicted],
    );
  }
  const unerased = JSON.parse(pending.unerased) as [string, number][];
  if (unerased.length > 0) {
    await tx.query(
      `INSERT INTO device_holdings (device_id, entity_id, erase_seq)
       SELECT $1, x, s FROM unnest($2::text[], $3::bigint[]) AS t(x, s)
       ON CONFLICT (device_id, entity_id) DO UPDATE SET erase_seq = EXCLUDED.erase_seq`,
      [deviceId, unerased.map(([id]) => id), unerased.map(([, seq]) => seq)],
    );
  }
}

/** `ack`: the id of the last page the replica committed, null when it sent none ([S19]). */
export async function pullOps(
  db: Db,
  actor: Actor,
  after: number,
  limit: number,
  ack: string | null = null,
): Promise<PullResponse> {
  const max = Math.min(Math.max(1, limit), PULL_MAX_OPS);
  return db.transaction(async (tx) => {
    // Everything up to last_seq has committed (pushes commit in sequence order, see push.ts).
    const state = await tx.query<{ last_seq: number | string }>(
      'SELECT last_seq FROM sync_state WHERE id = 1',
    );
    const last = Number(state[0]?.last_seq ?? 0);
    await settlePending(tx, actor.deviceId, after, ack);
    const visible = await visibleScopes(tx, actor.user);
    const evicted = await evict(tx, actor.deviceId, visible);
    const upTo = Math.min(after, last);
    const erased = await erasuresFor(tx, actor.deviceId, max);
    const first: OpRow[] = erased.rows;
    let backfill: OpRow[] = [];
    let more = erased.full;
    if (!more) {
      const room = max - first.length;
      backfill = await tx.query<OpRow>(BACKFILL_SQL, [actor.deviceId, visible, upTo, room]);
      more = backfill.length === room;
      if (!more) {
        const proposals = await backfillProposals(tx, actor.deviceId, visible, upTo, room - backfill.length);
        backfill = [...backfill, ...proposals.rows].sort((x, y) => Number(x.seq) - Number(y.seq));
        more = proposals.more;
      }
    }
    let rows = [...first, ...backfill];
    let cursor = after;
    if (!more && after < last) {
      const room = max - rows.length;
      const window = await tx.query<OpRow>(WINDOW_SQL, [after, last, visible, room]);
      rows = [...rows, ...window];
      more = window.length === room;
      cursor = more ? Number(window[window.length - 1]?.seq ?? after) : last;
    }
    const { added, unstaled } = await hold(tx, actor.deviceId, rows);
    const page = randomUUID();
    // Dropped holdings of erased sources are owed again if the page is not acknowledged ([S19]).
    // A page that changed no holdings has nothing to undo: it is not recorded.
    if (evicted.length > 0 || erased.dropped.length > 0 || added.length > 0 || unstaled.length > 0) {
      await tx.query(
        `INSERT INTO pull_pages (device_id, page_id, evicted, held, unstaled, unerased, after_seq, cursor_seq)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          actor.deviceId,
          page,
          JSON.stringify(evicted),
          JSON.stringify(added),
          JSON.stringify(unstaled),
          JSON.stringify(erased.dropped),
          after,
          cursor,
        ],
      );
    }
    return { ops: rows.map(toPulled), evict: evicted, cursor, more, page };
  });
}
