/**
 * Syncing and checking in the sync fuzz on the real server (server-fuzz.test.ts). A device syncs
 * through its flaky transport (a push, a pull or a whole round); after every pull that completed,
 * it holds nothing the server says its user may not see now. A revoked device removes what it
 * received and keeps only what it made ([S32]), then leaves the world. `settle` syncs every
 * device reliably until a pass moves nothing; `checkSettled` then holds each device to the
 * server-side truth ([S8], [S10], [S11]): the same items and edges, no leak, the search index in
 * step, nothing pending, and every refusal one a race explains.
 */
import { pullAll, pushAll, syncRound } from '#engine/sync/client.ts';
import { pendingCount } from '#engine/sync/outbox.ts';
import { forgetReceived } from '#engine/sync/revoked.ts';
import { RELIABLE } from '#engine/sync/testing/flaky.ts';
import { checkIndexes, dumpReplica } from '#engine/sync/testing/replica.ts';
import { AppError } from '#shared/errors.ts';
import type { Device, World } from './server-fuzz-world.ts';
import {
  type Dump,
  differences,
  edgeVisible,
  isRaceRefusal,
  type ServerState,
  scopesOf,
  serverState,
  visibleDump,
} from './server-truth.ts';

function refs(d: Device, table: 'sync_refused' | 'sync_outbox' | 'sync_changes'): Set<string> {
  const rows = d.replica.db.prepare(`SELECT kind, ref FROM ${table}`).all() as {
    kind: string;
    ref: string;
  }[];
  return new Set(rows.map((r) => `${r.kind}:${r.ref}`));
}

/**
 * What `d` holds that the server says its user may not see now (or does not have at all). Only
 * the device's own work that never reached the server in that state may stay: a change still
 * pending (unless `settled`), or one the server refused (kept and reported, [S29]).
 */
async function leaks(w: World, d: Device, state: ServerState, settled: boolean): Promise<string[]> {
  const scopes = await scopesOf(w.env.db, d.user);
  const refused = refs(d, 'sync_refused');
  const pending = settled
    ? new Set<string>()
    : new Set([...refs(d, 'sync_outbox'), ...refs(d, 'sync_changes')]);
  const excused = (ref: string, mine: boolean) => mine && (refused.has(ref) || pending.has(ref));
  const out: string[] = [];
  const dump = dumpReplica(d.replica.db) as Dump;
  for (const item of dump.items) {
    const at = state.items.get(item.id);
    if (at && scopes.includes(at.scope)) continue;
    if (excused(`item:${item.id}`, d.made.has(item.id))) continue;
    out.push(
      `${d.name} holds item ${item.id} (${at ? `in ${at.scope} on the server` : 'not on the server'})`,
    );
  }
  for (const edge of dump.edges) {
    if (edgeVisible(state, edge.id, scopes) || excused(`edge:${edge.id}`, d.linked.has(edge.id))) continue;
    out.push(`${d.name} holds edge ${edge.id} its user may not see (${scopes.join(' ')})`);
  }
  return out;
}

/** [S32] A revoked device removes what it received: what is left is only what it made. */
function forget(w: World, d: Device, step: number | string): void {
  const removed = forgetReceived(d.replica.db, d.replica.blobs);
  w.say(`${step} ${d.name} is revoked: removed ${removed.items} items, ${removed.edges} edges`);
  const dump = dumpReplica(d.replica.db) as Dump;
  for (const item of dump.items)
    if (!d.made.has(item.id)) w.problems.push(`revoked ${d.name} kept item ${item.id} it did not make`);
  for (const edge of dump.edges)
    if (!d.linked.has(edge.id)) w.problems.push(`revoked ${d.name} kept edge ${edge.id} it did not make`);
  if (pendingCount(d.replica.db) !== 0) w.problems.push(`revoked ${d.name} still has changes to send`);
  w.devices.splice(w.devices.indexOf(d), 1);
}

/** A failed sync call: offline is expected (lost answers), a revocation is handled, anything else is a bug. */
function failed(w: World, d: Device, err: unknown, step: number | string, what: string): void {
  if (err instanceof AppError && err.details?.revoked === true) {
    forget(w, d, step);
    return;
  }
  if (err instanceof AppError && err.code === 'sync-offline') {
    w.say(`${step} ${d.name} ${what} failed: ${err.message}`);
    return;
  }
  w.say(`${step} ${d.name} ${what} failed unexpectedly: ${err instanceof Error ? err.stack : String(err)}`);
  throw err;
}

export async function syncStep(w: World, d: Device, step: number): Promise<void> {
  const how = w.shake(d);
  const what = w.pick(['push', 'pull', 'round'] as const);
  try {
    if (what === 'push') await pushAll(d.replica, d.transport);
    else if (what === 'pull') await pullAll(d.replica, d.transport);
    else await syncRound(d.replica, d.transport);
  } catch (err) {
    failed(w, d, err, step, `${what} (${how})`);
    return;
  }
  w.say(`${step} ${d.name} ${what} ok (${how})`);
  if (what === 'push') return;
  // Whatever left the user's sight was evicted by the first page of this pull ([S11]).
  const found = await leaks(w, d, await serverState(w.env.db), false);
  for (const p of found) w.problems.push(`${step} after ${what}: ${p}`);
}

/** Reliable rounds on every device until one pass pushes, pulls and evicts nothing. */
export async function settle(w: World, label: string): Promise<void> {
  for (const d of w.devices) Object.assign(d.transport.control, RELIABLE);
  for (let pass = 0; pass < 10; pass++) {
    let moved = 0;
    for (const d of [...w.devices]) {
      await w.ownMillisecond(async () => {
        try {
          const r = await syncRound(d.replica, d.transport);
          moved += r.pushed + r.refused + r.pulled + r.evicted;
        } catch (err) {
          failed(w, d, err, label, 'settling round');
          moved += 1;
        }
      });
    }
    if (moved === 0) return;
  }
  w.problems.push(`${label}: still syncing after 10 reliable passes`);
}

/** After `settle`: every device equals the server-side truth for its user's scopes now. */
export async function checkSettled(w: World, label: string): Promise<{ tolerated: number }> {
  const state = await serverState(w.env.db);
  let tolerated = 0;
  for (const d of w.devices) {
    const db = d.replica.db;
    const scopes = await scopesOf(w.env.db, d.user);
    const pending = pendingCount(db);
    if (pending !== 0) w.problems.push(`${label}: ${d.name} has ${pending} changes not sent`);
    for (const p of checkIndexes(db)) w.problems.push(`${label}: ${d.name} index: ${p}`);
    for (const p of await leaks(w, d, state, true)) w.problems.push(`${label}: ${p}`);
    const refusals = db.prepare('SELECT kind, ref, reason FROM sync_refused').all() as {
      kind: string;
      ref: string;
      reason: string;
    }[];
    for (const r of refusals)
      if (!isRaceRefusal(r.reason))
        w.problems.push(`${label}: ${d.name} refused ${r.kind} ${r.ref}: ${r.reason}`);
    const refused = new Map(refusals.map((r) => [`${r.kind}:${r.ref}`, r.reason]));
    // The user's own work the server refused stays here ([S29]) when the server has nothing of it
    // the user may see; anything the server shows them must be exactly what it shows ([S8]).
    const diffs = differences(dumpReplica(db) as Dump, visibleDump(state, scopes));
    for (const [ref, { why, shown }] of diffs) {
      const [kind, id] = ref.split(':') as ['item' | 'edge', string];
      const mine = (kind === 'item' ? d.made : d.linked).has(id);
      if (!shown && mine && refused.has(ref)) {
        tolerated += 1;
        w.say(`${label}: ${d.name} keeps its refused ${ref} (${refused.get(ref)}): ${why}`);
      } else {
        const after = refused.has(ref) ? ` (after a refusal: ${refused.get(ref)})` : '';
        w.problems.push(`${label}: ${d.name} ${ref}${after}: ${why}`);
      }
    }
  }
  return { tolerated };
}
