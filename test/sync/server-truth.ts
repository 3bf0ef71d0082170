/**
 * The server-side truth the sync fuzz on the real server (server-fuzz.test.ts) holds replicas to:
 * read straight from the server's database, the current state of every item and edge is the body
 * of its winning op (`items.op_id`, `edges.op_id`, [S8]), and what a user may see now is what
 * [S10] says: an item in one of their scopes, an edge whose own scope and both ends' are. A
 * replica's `dumpReplica` is compared with it column by column (the columns that sync,
 * src/engine/sync/outbox.ts), and what a replica holds that the server says its user may not see
 * is a leak.
 */
import { EDGE_COLUMNS, ITEM_COLUMNS } from '#engine/sync/outbox.ts';
import type { Op } from '#shared/sync/protocol.ts';
import type { Db } from '../../src/server/db/types.ts';
import { visibleScopes } from '../../src/server/scopes.ts';

type Row = Record<string, unknown> & { id: string };
export type Dump = { items: Row[]; edges: Row[] };

type ItemAt = { scope: string };
type EdgeAt = { scope: string; from: string; to: string };
/** Where everything is on the server now: every item's scope, every edge's scope and ends. */
export type ServerState = { items: Map<string, ItemAt>; edges: Map<string, EdgeAt>; dump: Dump };

function pickColumns(source: Record<string, unknown>, columns: readonly string[], id: string): Row {
  const out: Row = { id };
  for (const c of columns) out[c] = source[c] ?? null;
  return out;
}

const byId = (a: Row, b: Row) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export async function serverState(db: Db): Promise<ServerState> {
  const items = await db.query<{ id: string; scope: string; body: string }>(
    'SELECT i.id, i.scope, o.body FROM items i JOIN ops o ON o.id = i.op_id',
  );
  const edges = await db.query<{ id: string; scope: string; from_id: string; to_id: string; body: string }>(
    'SELECT e.id, e.scope, e.from_id, e.to_id, o.body FROM edges e JOIN ops o ON o.id = e.op_id',
  );
  const dump: Dump = { items: [], edges: [] };
  for (const r of items) {
    const op = JSON.parse(r.body) as Op;
    if (op.kind !== 'item.upsert') throw new Error(`item ${r.id} is won by a ${op.kind} op`);
    dump.items.push(pickColumns(op.item, ITEM_COLUMNS, r.id));
  }
  for (const r of edges) {
    const op = JSON.parse(r.body) as Op;
    if (op.kind !== 'edge.upsert') throw new Error(`edge ${r.id} is won by a ${op.kind} op`);
    dump.edges.push(pickColumns(op.edge, EDGE_COLUMNS, r.id));
  }
  dump.items.sort(byId);
  dump.edges.sort(byId);
  return {
    items: new Map(items.map((r) => [r.id, { scope: r.scope }])),
    edges: new Map(edges.map((r) => [r.id, { scope: r.scope, from: r.from_id, to: r.to_id }])),
    dump,
  };
}

export function scopesOf(db: Db, user: string): Promise<string[]> {
  return visibleScopes(db, user);
}

/** [S10] An edge is visible when its own scope and both its ends' current scopes are. */
export function edgeVisible(state: ServerState, id: string, scopes: readonly string[]): boolean {
  const e = state.edges.get(id);
  if (!e) return false;
  const from = state.items.get(e.from)?.scope;
  const to = state.items.get(e.to)?.scope;
  return scopes.includes(e.scope) && !!from && scopes.includes(from) && !!to && scopes.includes(to);
}

/** What a user may see now, as `dumpReplica` shows a replica. */
export function visibleDump(state: ServerState, scopes: readonly string[]): Dump {
  return {
    items: state.dump.items.filter((r) => scopes.includes(String(r.scope))),
    edges: state.dump.edges.filter((r) => edgeVisible(state, r.id, scopes)),
  };
}

function describe(row: Row | undefined): string {
  if (!row) return 'nothing';
  const body = typeof row.body === 'string' ? ` "${row.body}"` : '';
  const ends = row.from_id ? ` ${String(row.from_id)}->${String(row.to_id)}` : '';
  const retired = row.retired_at ? ' retired' : '';
  return `${String(row.scope ?? '')}${ends}${body}${retired} by ${String(row.origin_actor)}`;
}

/** A ref where a replica and the truth differ; `shown`: the truth has it (its user may see it now). */
export type Difference = { why: string; shown: boolean };

/** Every ref (`item:<id>`, `edge:<id>`) where the replica and the truth differ, with both sides. */
export function differences(local: Dump, truth: Dump): Map<string, Difference> {
  const out = new Map<string, Difference>();
  const compare = (kind: 'item' | 'edge', mine: Row[], theirs: Row[]) => {
    const a = new Map(mine.map((r) => [r.id, r]));
    const b = new Map(theirs.map((r) => [r.id, r]));
    for (const id of new Set([...a.keys(), ...b.keys()])) {
      const l = a.get(id);
      const t = b.get(id);
      if (JSON.stringify(l && sortKeys(l)) === JSON.stringify(t && sortKeys(t))) continue;
      out.set(`${kind}:${id}`, {
        why: `replica holds ${describe(l)}; server shows ${describe(t)}`,
        shown: t !== undefined,
      });
    }
  };
  compare('item', local.items, truth.items);
  compare('edge', local.edges, truth.edges);
  return out;
}

function sortKeys(row: Row): Row {
  return Object.fromEntries(Object.entries(row).sort(([x], [y]) => (x < y ? -1 : 1))) as Row;
}

/**
 * Refusals an honest replica can meet in a race (it wrote by what it knew, the server knew more:
 * a membership change, a move or a retirement it had not pulled yet). Any other reason is a bug.
 */
const RACE_REFUSALS: readonly RegExp[] = [
  /cannot write in scope/,
  /is in a scope \S+ cannot write$/,
  /^edge end \S+ not found$/,
  /^edge scope must be \S+, the narrowest of its ends' scopes$/,
  /^edge ends are in scopes that cannot be compared/,
  /^only \S+ or an admin can move /,
  /would hide it from its author/,
  /is not the id of its source key in your namespace$/,
];

export function isRaceRefusal(reason: string): boolean {
  return RACE_REFUSALS.some((re) => re.test(reason));
}
