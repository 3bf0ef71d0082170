/**
 * Telemetry in the local store: what was searched, injected and called, by whom, from where
 * (surface), with what scores and what came of it. Read back, per user, by activity.ts.
 *
 * Events written today (their `data` shapes are below):
 *  - `search`  every engine search (Engine.search): query, semantic, ms, hits [{id, score}]
 *  - `inject`  every read-injection turn (injection.ts): query, scores, anchors, what was injected
 *              or why nothing was
 *  - `tool`    every MCP tool call and its outcome (src/hosts/mcp): tool, agent, run, ok, ms, error
 *  - `add`     files added through the engine
 *  - `act-as`  an admin opened the engine as another member (`--as`): as, by, command, surface;
 *              logged under the admin (acting-as.ts, [R3] in docs/RETRIEVAL.md)
 *
 * Outside a write transaction a row never waits long for the write lock (logEvent below).
 */
import { isSqliteLockError } from '#shared/errors.ts';
import { type Db, stmt, writeTx } from './db/driver.ts';

export type Surface = 'cli' | 'chat' | 'agent' | 'app';

export type SearchEventData = {
  query: string;
  semantic: boolean;
  ms: number;
  hits: { id: string; score: number }[];
};

export type InjectEventData = {
  query: string;
  semantic: boolean;
  /** The absolute floor this turn was held to (it depends on which lists ran). */
  floor: number;
  /** Every hit search returned: final score, and the raw rank-fusion vote the floor is checked on. */
  scores: { id: string; score: number; vote: number }[];
  anchors: { id: string; status: string }[];
  injected: { id: string; score: number | null; isAnchor: boolean }[];
  tokens: number;
  reason: string;
  ms: number;
};

export type ToolEventData = {
  tool: string;
  agent: string;
  run: string;
  ok: boolean;
  ms: number;
  /** A short description of the arguments (sizes and ids, never whole bodies). */
  args?: Record<string, unknown>;
  error?: { code: string; message: string };
  result?: Record<string, unknown>;
};

/**
 * How long a telemetry row waits for another process's write lock. A search is a read: it must
 * answer at once while `brain index` holds the lock, not wait the 10 s a real write waits
 * (rule [B1] in docs/WORKSPACE.md). A row that cannot get the lock in time stays queued in memory
 * and goes with the next event, or when the engine closes; a process that exits while the lock
 * is still held loses those rows (the activity log is best effort, the answer is not).
 */
const TELEMETRY_LOCK_WAIT_MS = 250;
/** After a busy attempt, later events wait this long before trying again (a `--batch` of searches). */
const RETRY_AFTER_MS = 2000;
const PENDING_MAX = 1000;

type Row = [at: string, surface: Surface, userId: string, event: string, data: string];
type Pending = { rows: Row[]; retryAt: number };
const pending = new WeakMap<Db, Pending>();

function insert(db: Db, row: Row): void {
  stmt(db, 'INSERT INTO telemetry (at, surface, user_id, event, data) VALUES (?, ?, ?, ?, ?)').run(...row);
}

/** Never throws: telemetry must not break the work it records. */
export function logEvent(db: Db, surface: Surface, userId: string, event: string, data: unknown): void {
  try {
    const row: Row = [new Date().toISOString(), surface, userId, event, JSON.stringify(data)];
    // Inside a write transaction the lock is already held: the row commits (or not) with the work.
    if (db.inTransaction) {
      insert(db, row);
      return;
    }
    const queue = pending.get(db) ?? { rows: [], retryAt: 0 };
    pending.set(db, queue);
    queue.rows.push(row);
    if (queue.rows.length > PENDING_MAX) queue.rows.splice(0, queue.rows.length - PENDING_MAX);
    if (Date.now() >= queue.retryAt) flushTelemetry(db);
  } catch {
    // A full disk or a closed database loses one telemetry row, not the search.
  }
}

/** Writes the queued rows, waiting at most TELEMETRY_LOCK_WAIT_MS for the lock. Never throws. */
export function flushTelemetry(db: Db): void {
  const queue = pending.get(db);
  if (!queue?.rows.length || !db.open || db.inTransaction) return;
  let timeout: number | undefined;
  try {
    timeout = db.pragma('busy_timeout', { simple: true }) as number;
    db.pragma(`busy_timeout = ${Math.min(timeout, TELEMETRY_LOCK_WAIT_MS)}`);
    db.transaction(() => {
      for (const row of queue.rows) insert(db, row);
    }).immediate();
    queue.rows.length = 0;
  } catch (err) {
    // Busy: try again later. Anything else (a full disk) would fail again: drop the rows.
    if (isSqliteLockError(err)) queue.retryAt = Date.now() + RETRY_AFTER_MS;
    else queue.rows.length = 0;
  } finally {
    if (timeout !== undefined) db.pragma(`busy_timeout = ${timeout}`);
  }
}

/** How long the activity log keeps a search, an injection, a tool call or an add ([B3] in docs/WORKSPACE.md). */
export const TELEMETRY_KEEP_DAYS = 90;
/** Rows looked at per short write transaction: other processes wait on the lock at most this long. */
const PRUNE_BATCH = 2000;

/**
 * Deletes activity older than `keepDays`, oldest first, a batch per transaction, and answers how
 * many rows went. An admin's `act-as` entries stay: they are the audit of who acted as whom. Rows
 * are read in id order, which is the order they were written, so the walk stops at the first
 * batch that reaches rows younger than the cut; a host calls it from its hourly look
 * (src/engine/backup/schedule.ts).
 */
export function pruneTelemetry(db: Db, now = new Date(), keepDays = TELEMETRY_KEEP_DAYS): number {
  const cut = new Date(now.getTime() - keepDays * 86_400_000).toISOString();
  const read = stmt(db, `SELECT id, at, event FROM telemetry WHERE id > ? ORDER BY id LIMIT ${PRUNE_BATCH}`);
  const drop = stmt(db, 'DELETE FROM telemetry WHERE id IN (SELECT value FROM json_each(?))');
  let after = 0;
  let pruned = 0;
  for (;;) {
    const rows = read.all(after) as { id: number; at: string; event: string }[];
    const old = rows.filter((r) => r.at < cut && r.event !== 'act-as').map((r) => r.id);
    if (old.length > 0) pruned += writeTx(db, () => drop.run(JSON.stringify(old)).changes);
    const last = rows.at(-1);
    if (!last || rows.length < PRUNE_BATCH || last.at >= cut) return pruned;
    after = last.id;
  }
}
