/**
 * [S10]–[S13] as a property: over random teams, memberships, scopes and operations (items, edges,
 * blobs), a user never receives an op, item, edge or blob outside the scopes they can see at that
 * moment, and after a final pull every replica holds exactly what its user may see, in the
 * server's winning state. Bounded and seeded: the seed is printed; rerun one with
 * SYNC_PROPERTY_SEED=<seed>.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Op, PullResponse } from '#shared/sync/protocol.ts';
import type { Db } from '../../src/server/db/types.ts';
import { TestClient } from './client.ts';
import { buildEdgeOp, buildItemOp, hlc, itemId, sha256 } from './factories.ts';
import { forEachBackend, useServer } from './harness.ts';
import { resetDb } from './support.ts';

const USERS = ['admin', 'u1', 'u2', 'u3'] as const;
const TEAMS = ['A', 'B'] as const;
const SCOPES = ['org', 'team:A', 'team:B', 'user:admin', 'user:u1', 'user:u2', 'user:u3'];
const ITEMS = Array.from({ length: 6 }, (_, i) => itemId(`prop-${i}`));
const BLOBS = [0, 1, 2].map((i) => new TextEncoder().encode(`blob ${i}`));
const HASHES = BLOBS.map((b) => sha256(b));

type Action =
  | { t: 'item'; by: number; item: number; scope: number; blob: number; skew: number }
  | { t: 'edge'; by: number; from: number; to: number; scope: number; narrowest: boolean; skew: number }
  | { t: 'member'; team: number; user: number; add: boolean }
  | { t: 'pull'; by: number; limit: number };

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    t: fc.constant('item' as const),
    by: fc.nat(3),
    item: fc.nat(5),
    scope: fc.nat(6),
    blob: fc.integer({ min: -1, max: 2 }),
    skew: fc.nat(30),
  }),
  fc.record({
    t: fc.constant('edge' as const),
    by: fc.nat(3),
    from: fc.nat(5),
    to: fc.nat(5),
    scope: fc.nat(6),
    narrowest: fc.boolean(),
    skew: fc.nat(30),
  }),
  fc.record({
    t: fc.constant('member' as const),
    team: fc.nat(1),
    user: fc.integer({ min: 1, max: 3 }),
    add: fc.boolean(),
  }),
  fc.record({
    t: fc.constant('pull' as const),
    by: fc.integer({ min: 1, max: 3 }),
    limit: fc.integer({ min: 1, max: 8 }),
  }),
);

type Replica = { cursor: number; items: Map<string, Op>; edges: Map<string, Op> };
type State = { scope: string; op_id: string };

function newer(a: Op, b: Op | undefined): boolean {
  return !b || a.hlc > b.hlc || (a.hlc === b.hlc && a.id > b.id);
}

async function serverState(db: Db) {
  const items = new Map(
    (
      await db.query<State & { id: string; blob: string | null }>('SELECT id, scope, op_id, blob FROM items')
    ).map((r) => [r.id, r]),
  );
  const edges = await db.query<State & { id: string; from_id: string; to_id: string }>(
    'SELECT id, scope, op_id, from_id, to_id FROM edges',
  );
  return { items, edges };
}

async function visibleOf(db: Db, user: string): Promise<Set<string>> {
  const teams = await db.query<{ team_id: string }>('SELECT team_id FROM team_members WHERE user_id = $1', [
    user,
  ]);
  return new Set(['org', `user:${user}`, ...teams.map((t) => `team:${t.team_id}`)]);
}

/** What `user` may see right now, from the server's own tables. */
async function expected(db: Db, user: string) {
  const v = await visibleOf(db, user);
  const s = await serverState(db);
  const items = [...s.items.values()].filter((i) => v.has(i.scope));
  const seen = (id: string) => v.has(s.items.get(id)?.scope ?? '');
  const edges = s.edges.filter((e) => v.has(e.scope) && seen(e.from_id) && seen(e.to_id));
  const blobs = new Set(items.map((i) => i.blob).filter((b): b is string => b !== null));
  return { v, s, items, edges, blobs };
}

async function checkPage(db: Db, user: string, page: PullResponse, replica: Replica) {
  const { v, s } = await expected(db, user);
  for (const { op } of page.ops) {
    expect(v.has(op.scope), `${user} got an op in ${op.scope}`).toBe(true);
    if (op.kind === 'item.upsert') expect(v.has(s.items.get(op.item.id)?.scope ?? '')).toBe(true);
    if (op.kind === 'edge.upsert') {
      expect(v.has(s.items.get(op.edge.from_id)?.scope ?? '')).toBe(true);
      expect(v.has(s.items.get(op.edge.to_id)?.scope ?? '')).toBe(true);
    }
  }
  for (const id of page.evict) {
    replica.items.delete(id);
    replica.edges.delete(id);
  }
  for (const { op } of page.ops) {
    if (op.kind === 'item.upsert' && newer(op, replica.items.get(op.item.id)))
      replica.items.set(op.item.id, op);
    if (op.kind === 'edge.upsert' && newer(op, replica.edges.get(op.edge.id)))
      replica.edges.set(op.edge.id, op);
  }
  replica.cursor = page.cursor;
}

async function checkBlobs(db: Db, client: TestClient) {
  const { blobs } = await expected(db, client.user);
  for (const hash of HASHES) {
    const r = await client.getBlob(hash);
    expect(r.status, `${client.user} GET blob ${hash.slice(0, 8)}`).toBe(blobs.has(hash) ? 200 : 404);
  }
}

forEachBackend('visibility property', (backend) => {
  const env = useServer(backend);

  it('[S10] a user never receives anything outside their scopes, and converges to exactly what they may see', async () => {
    const e = env();
    const seed = Number(process.env.SYNC_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`[S10] visibility property on ${backend.name}: seed ${seed}`);
    let step = 0;
    const run = async (initial: boolean[][], actions: Action[]) => {
      const code = await resetDb(e.db);
      const admin = await new TestClient(e.url).redeem(code);
      for (const team of TEAMS) await admin.createTeam(team);
      const clients = [admin];
      for (let u = 1; u < USERS.length; u++) {
        const teams = TEAMS.filter((_, t) => initial[u - 1]?.[t]);
        clients.push(await admin.join(USERS[u] ?? '', teams));
      }
      for (let i = 0; i < BLOBS.length; i++)
        await admin.putBlob(HASHES[i] ?? '', BLOBS[i] ?? new Uint8Array());
      const replicas = clients.map((): Replica => ({ cursor: 0, items: new Map(), edges: new Map() }));
      for (const a of actions) {
        step++;
        if (a.t === 'item') {
          const scope = SCOPES[a.scope] ?? 'org';
          const blob = a.blob >= 0 ? (HASHES[a.blob] ?? null) : null;
          await clients[a.by]?.push([
            buildItemOp(ITEMS[a.item] ?? '', scope, { hlc: hlc(step * 10 + a.skew), item: { blob } }),
          ]);
        } else if (a.t === 'edge') {
          const s = await serverState(e.db);
          const f = s.items.get(ITEMS[a.from] ?? '')?.scope ?? 'org';
          const t = s.items.get(ITEMS[a.to] ?? '')?.scope ?? 'org';
          const narrow = f === 'org' ? t : t === 'org' || t === f ? f : 'org';
          const scope = a.narrowest ? narrow : (SCOPES[a.scope] ?? 'org');
          await clients[a.by]?.push([
            buildEdgeOp(ITEMS[a.from] ?? '', ITEMS[a.to] ?? '', scope, { hlc: hlc(step * 10 + a.skew) }),
          ]);
        } else if (a.t === 'member') {
          const team = TEAMS[a.team] ?? 'A';
          const user = USERS[a.user] ?? 'u1';
          if (a.add) await admin.addToTeam(team, user);
          else await admin.removeFromTeam(team, user);
        } else {
          const client = clients[a.by] as TestClient;
          const replica = replicas[a.by] as Replica;
          const page = await client.pull(replica.cursor, a.limit);
          expect(page.status).toBe(200);
          await checkPage(e.db, client.user, page.body, replica);
          await checkBlobs(e.db, client);
        }
      }
      for (let u = 1; u < USERS.length; u++) {
        const client = clients[u] as TestClient;
        const replica = replicas[u] as Replica;
        for (;;) {
          const page = await client.pull(replica.cursor, 50);
          await checkPage(e.db, client.user, page.body, replica);
          if (!page.body.more) break;
        }
        const want = await expected(e.db, client.user);
        const got = [...replica.items.entries()].map(([id, op]) => [id, op.id]).sort();
        expect(got).toEqual(
          want.items.map((i) => [[...want.s.items.entries()].find(([, v]) => v === i)?.[0], i.op_id]).sort(),
        );
        expect([...replica.edges.entries()].map(([id, op]) => [id, op.id]).sort()).toEqual(
          want.edges.map((x) => [x.id, x.op_id]).sort(),
        );
        await checkBlobs(e.db, client);
      }
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }), { minLength: 3, maxLength: 3 }),
        fc.array(actionArb, { minLength: 5, maxLength: 30 }),
        run,
      ),
      { seed, numRuns: Number(process.env.SYNC_PROPERTY_RUNS ?? 10), interruptAfterTimeLimit: 90_000 },
    );
  }, 180_000);
});
