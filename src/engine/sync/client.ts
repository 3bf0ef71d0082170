/**
 * One sync round: freeze local changes, push the outbox (blobs first), learn the user's teams,
 * pull pages after the cursor and apply each page with its cursor in one transaction, then fetch
 * the blobs pulled file items need. Every step is safe to cut off: unacknowledged operations stay
 * in the outbox and are resent with the same ids, an unapplied page is pulled again. The id of
 * the last committed page is stored with the cursor and sent as `ack` on the next pull: a page
 * the server answered but this replica never committed is undone and sent again ([S19]).
 */

import { AppError } from '#shared/errors.ts';
import {
  type MeResponse,
  OP_KINDS,
  type Op,
  OpSchema,
  PULL_MAX_OPS,
  PUSH_MAX_BYTES,
  PUSH_MAX_OPS,
  type PulledOp,
  type PullResponse,
  PullResponseSchema,
} from '#shared/sync/protocol.ts';
import type { BlobStore } from '../add/blobs.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import { sha256 } from '../ids.ts';
import { removeBlobFiles, secureWrite } from '../knowledge/erase.ts';
import type { Surface } from '../telemetry.ts';
import { ensureUser } from '../workspace.ts';
import { applyPage } from './apply.ts';
import { ReplicaClock } from './clock.ts';
import {
  type ChangeKind,
  clearRefusals,
  forgetVersion,
  freezeChanges,
  nextBatch,
  pendingCount,
  recordChange,
  recordRefusal,
  removeFromOutbox,
} from './outbox.ts';
import { readState, recordAttempt } from './state.ts';
import type { SyncTransport } from './transport.ts';

export type SyncDeps = {
  db: Db;
  blobs: BlobStore;
  workspaceId: string;
  localModel: string | null;
  /** Where a local decision the server overruled is logged (default: cli). */
  surface?: Surface;
};

export type SyncReport = {
  pushed: number;
  refused: number;
  pulled: number;
  applied: number;
  evicted: number;
  /** Pulled proposal changes (new, decided, evicted): the inbox should refresh. */
  proposals: number;
  pending: number;
  cursor: number;
  blobs: { uploaded: number; fetched: number };
  /**
   * Local changes of this round that will never reach anyone: refused by the server, or not
   * sendable at all. Never silent: `brain sync` fails with them, status and the app show them.
   */
  unsent: { kind: string; ref: string; reason: string }[];
  /** Pulled operations of kinds this version does not know (from a newer peer), kept aside ([S30]). */
  setAside: number;
};

const MAX_PUSH_BATCHES = 400;
const MAX_PULL_PAGES = 400;
const MAX_BLOB_ATTEMPTS = 20;

/** One push/pull round; records online/offline and the error for the status bar, then rethrows it. */
export async function syncRound(deps: SyncDeps, transport: SyncTransport): Promise<SyncReport> {
  const mark = lastRefusalId(deps.db);
  try {
    const push = await pushAll(deps, transport);
    applyMembership(deps.db, await transport.me());
    const pull = await pullAll(deps, transport);
    const fetched = await fetchBlobs(deps, transport);
    recordAttempt(deps.db, { online: true, error: null, synced: true });
    return {
      pushed: push.pushed,
      refused: push.refused,
      pulled: pull.pulled,
      applied: pull.applied,
      evicted: pull.evicted,
      proposals: pull.proposals,
      pending: pendingCount(deps.db),
      cursor: readState(deps.db).cursor,
      blobs: { uploaded: push.uploaded, fetched },
      unsent: refusalsAfter(deps.db, mark),
      setAside: pull.setAside,
    };
  } catch (err) {
    const offline = err instanceof AppError && err.code === 'sync-offline';
    const message = err instanceof Error ? err.message : String(err);
    try {
      recordAttempt(deps.db, { online: !offline, error: message, synced: false });
    } catch {
      // a busy database must not hide the real error
    }
    throw err;
  }
}

export async function pushAll(
  deps: SyncDeps,
  transport: SyncTransport,
): Promise<{ pushed: number; refused: number; uploaded: number }> {
  freezeChanges(deps.db);
  const out = { pushed: 0, refused: 0, uploaded: 0 };
  const resent = new Set<string>();
  for (let i = 0; i < MAX_PUSH_BATCHES; i++) {
    const batch = nextBatch(deps.db, PUSH_MAX_OPS, PUSH_MAX_BYTES - 4096);
    if (batch.length === 0) break;
    const ops = batch.map((e) => JSON.parse(e.body) as Op);
    out.uploaded += await uploadBlobs(deps, transport, ops);
    // The last page applied here: the server then knows which erases this replica has ([S36]).
    const res = await transport.push({ ops, ack: readState(deps.db).pull_page });
    const byId = new Map(batch.map((e) => [e.opId, e]));
    let again = false;
    writeTx(deps.db, () => {
      removeFromOutbox(
        deps.db,
        res.accepted.map((a) => a.id),
      );
      // A change that reached the server now is no longer one that did not.
      for (const a of res.accepted) {
        const entry = byId.get(a.id);
        if (entry) clearRefusals(deps.db, entry.kind, entry.ref);
      }
      for (const r of res.refused) {
        const entry = byId.get(r.id);
        if (!entry) continue;
        // [S24] A move that met a newer change goes again, stamped after it (once a round).
        if (r.newer && !resent.has(`${entry.kind}:${entry.ref}`)) {
          resent.add(`${entry.kind}:${entry.ref}`);
          new ReplicaClock(deps.db).observe(r.newer);
          recordChange(deps.db, entry.kind as ChangeKind, entry.ref);
          again = true;
          continue;
        }
        recordRefusal(deps.db, r.id, entry.kind, entry.ref, r.reason);
        // [S34] The refused version is this replica's alone: it no longer outranks the server's,
        // which the next pull sends again (or evicts, when the user may not see it now).
        if (entry.kind === 'item' || entry.kind === 'edge') forgetVersion(deps.db, entry.kind, entry.ref);
      }
      removeFromOutbox(
        deps.db,
        res.refused.map((r) => r.id),
      );
    });
    out.pushed += res.accepted.length;
    out.refused += res.refused.length;
    if (again) freezeChanges(deps.db);
    // A server that acknowledged nothing would have us resend the same batch forever.
    if (res.accepted.length + res.refused.length === 0) break;
  }
  return out;
}

/** The bytes go up before the items that reference them (HEAD first: most are there already). */
async function uploadBlobs(deps: SyncDeps, transport: SyncTransport, ops: readonly Op[]): Promise<number> {
  const hashes = new Set<string>();
  for (const op of ops) {
    // sections name their file's blob too, and may travel in an earlier batch than the file
    if (op.kind === 'item.upsert' && op.item.blob) hashes.add(op.item.blob);
  }
  let uploaded = 0;
  for (const hash of hashes) {
    if (!deps.blobs.has(hash)) continue; // pulled without its bytes yet: the server has them
    if (await transport.hasBlob(hash)) continue;
    await transport.putBlob(hash, deps.blobs.get(hash));
    uploaded += 1;
  }
  return uploaded;
}

/** The server's teams become this replica's teams for the user, so local scope checks match its. */
export function applyMembership(db: Db, me: MeResponse): void {
  writeTx(db, () => {
    ensureUser(db, me.user);
    const now = new Date().toISOString();
    for (const team of me.teams) {
      stmt(db, 'INSERT OR IGNORE INTO teams (id, name, created_at) VALUES (?, ?, ?)').run(team, team, now);
      stmt(db, 'INSERT OR IGNORE INTO team_members (team_id, user_id) VALUES (?, ?)').run(team, me.user);
    }
    stmt(
      db,
      'DELETE FROM team_members WHERE user_id = ? AND team_id NOT IN (SELECT value FROM json_each(?))',
    ).run(me.user, JSON.stringify(me.teams));
    stmt(db, 'UPDATE sync_state SET teams = ?, is_admin = ?, workspace_name = ? WHERE id = 1').run(
      JSON.stringify(me.teams),
      me.isAdmin ? 1 : 0,
      me.workspace.name,
    );
  });
}

export async function pullAll(
  deps: SyncDeps,
  transport: SyncTransport,
): Promise<{ pulled: number; applied: number; evicted: number; proposals: number; setAside: number }> {
  const out = { pulled: 0, applied: 0, evicted: 0, proposals: 0, setAside: 0 };
  for (let i = 0; i < MAX_PULL_PAGES; i++) {
    const state = readState(deps.db);
    const after = state.cursor;
    const page = readPage(await transport.pull(after, PULL_MAX_OPS, state.pull_page));
    // A page that erases overwrites what it deletes ([C16]).
    const write = page.ops.some((p) => p.op.kind === 'item.erase') ? secureWrite : writeTx;
    const result = write(deps.db, () => {
      setAside(deps.db, page.unknown);
      return applyPage(
        {
          db: deps.db,
          workspaceId: deps.workspaceId,
          localModel: deps.localModel,
          hasBlob: deps.blobs.has,
          surface: deps.surface,
        },
        { ops: page.ops, evict: page.evict, cursor: page.cursor, page: page.page },
      );
    });
    removeBlobFiles(deps.blobs, result.erasedBlobs);
    out.pulled += page.ops.length + page.unknown.length;
    out.applied += result.applied;
    out.evicted += result.evicted;
    out.proposals += result.proposals;
    out.setAside += page.unknown.length;
    // A backfill page (items newly visible, delivered with older seqs) may keep the cursor where it was.
    if (!page.more || (page.cursor <= after && page.ops.length + page.unknown.length === 0)) break;
  }
  return out;
}

type UnknownOp = { seq: number; actor: string; kind: string; body: string };
type ReadPage = Omit<PullResponse, 'ops'> & { ops: PulledOp[]; unknown: UnknownOp[] };

/**
 * [S30] A page is checked whole before anything of it is applied: one that does not match the
 * protocol, or holds a malformed operation of a kind this version knows, is refused whole. An
 * operation of a kind it does not know (a newer peer's) is set aside and counted, never applied.
 */
function readPage(raw: unknown): ReadPage {
  const parsed = PullResponseSchema.safeParse(raw);
  if (!parsed.success) throw malformed(parsed.error.issues[0]);
  const ops: PulledOp[] = [];
  const unknown: UnknownOp[] = [];
  for (const p of parsed.data.ops) {
    if (!OP_KINDS.includes(p.op.kind)) {
      unknown.push({ seq: p.seq, actor: p.actor, kind: p.op.kind, body: JSON.stringify(p.op) });
      continue;
    }
    const op = OpSchema.safeParse(p.op);
    if (!op.success) throw malformed(op.error.issues[0], p.seq);
    ops.push({ seq: p.seq, actor: p.actor, op: op.data });
  }
  return { ...parsed.data, ops, unknown };
}

function malformed(issue: { path: PropertyKey[]; message: string } | undefined, seq?: number): AppError {
  const where = `${seq === undefined ? '' : `operation ${seq} `}${issue?.path.join('.') ?? ''}`.trim();
  return new AppError(
    'refused',
    `The workspace server sent a malformed pull page (${where}: ${issue?.message ?? 'invalid'}); nothing of it was applied.`,
  );
}

function setAside(db: Db, ops: readonly UnknownOp[]): void {
  const insert = stmt(
    db,
    'INSERT OR IGNORE INTO sync_set_aside (seq, kind, actor, body, at) VALUES (?, ?, ?, ?, ?)',
  );
  const at = new Date().toISOString();
  for (const op of ops) insert.run(op.seq, op.kind, op.actor, op.body, at);
}

function lastRefusalId(db: Db): number {
  return (stmt(db, 'SELECT COALESCE(MAX(id), 0) AS n FROM sync_refused').get() as { n: number }).n;
}

function refusalsAfter(db: Db, id: number): SyncReport['unsent'] {
  return stmt(db, 'SELECT kind, ref, reason FROM sync_refused WHERE id > ? ORDER BY id').all(
    id,
  ) as SyncReport['unsent'];
}

async function fetchBlobs(deps: SyncDeps, transport: SyncTransport): Promise<number> {
  const wanted = stmt(
    deps.db,
    'SELECT hash FROM sync_blobs_wanted WHERE attempts < ? ORDER BY attempts, hash LIMIT 500',
  ).all(MAX_BLOB_ATTEMPTS) as { hash: string }[];
  let fetched = 0;
  for (const { hash } of wanted) {
    const needed = stmt(deps.db, "SELECT 1 FROM items WHERE blob = ? AND storage_kind = 'file' LIMIT 1").get(
      hash,
    );
    if (!needed || deps.blobs.has(hash)) {
      stmt(deps.db, 'DELETE FROM sync_blobs_wanted WHERE hash = ?').run(hash);
      continue;
    }
    const bytes = await transport.getBlob(hash);
    if (!bytes || sha256(bytes) !== hash) {
      // not uploaded yet by the device that added it (or damaged on the way): try again next round
      stmt(deps.db, 'UPDATE sync_blobs_wanted SET attempts = attempts + 1 WHERE hash = ?').run(hash);
      continue;
    }
    deps.blobs.put(bytes);
    stmt(deps.db, 'DELETE FROM sync_blobs_wanted WHERE hash = ?').run(hash);
    fetched += 1;
  }
  return fetched;
}
