/**
 * Opens the workspace database: WAL so readers never block the writer, a bounded busy timeout so
 * a writer waiting on another process fails clearly instead of hanging, sqlite-vec loaded.
 * Opening a database that is already migrated runs no write statement, so read-only commands
 * open and answer while another process holds the write lock (rules [B1] and [B2] in
 * docs/WORKSPACE.md). The file is created 0600 (rule [M1] in docs/SECURITY.md).
 */
import Database from 'better-sqlite3';
import { ensurePrivateFile, tightenFile } from '#platform/private-files.ts';
import { WRITE_LOCK_TIMEOUT_MS } from '#shared/constants.ts';
import { AppError, BUSY_MESSAGE, isSqliteLockError } from '#shared/errors.ts';
import { migrate } from './migrate.ts';
import { loadVecExtension } from './vec-extension.ts';

export type Db = Database.Database;

/** How long a writer waits for the lock: WRITE_LOCK_TIMEOUT_MS, or BRAIN_WRITE_LOCK_TIMEOUT_MS when set. */
export function writeLockTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BRAIN_WRITE_LOCK_TIMEOUT_MS;
  const ms = Number(raw);
  return raw && Number.isInteger(ms) && ms >= 0 ? ms : WRITE_LOCK_TIMEOUT_MS;
}

/**
 * The engine connection's page cache, in KiB (SQLite's default is 2 MB). A search at 1M sections
 * reads the full-text index's interior pages and the common terms' doclists again and again;
 * with 2 MB each one is a read from the operating system and a parse, and a fresh process's
 * searches measured about twice as slow as with 128 MB (bench/engine-process.ts). The cache fills
 * only as pages are read: a short-lived process that reads little stays small.
 */
export const ENGINE_CACHE_KIB = 65_536;

export function openDb(path: string, options: { busyTimeoutMs?: number } = {}): Db {
  const onDisk = path !== '' && path !== ':memory:' && !path.startsWith('file:');
  if (onDisk) ensurePrivateFile(path);
  const db = new Database(path, {
    timeout: options.busyTimeoutMs ?? writeLockTimeoutMs(),
    // The desktop app's engine process runs on Electron's ABI and brings its own build of the binding.
    nativeBinding: process.env.BRAIN_SQLITE_BINDING || undefined,
  });
  try {
    loadVecExtension(db);
    // The journal mode is kept in the file: only a new database needs it set (that takes a lock).
    if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // Checkpoint the WAL every ~16 MB instead of 4 MB: indexing writes in many short transactions.
    db.pragma('wal_autocheckpoint = 4000');
    db.pragma('foreign_keys = ON');
    db.pragma(`cache_size = -${ENGINE_CACHE_KIB}`);
    migrate(db);
  } catch (err) {
    db.close();
    throw asBusy(err);
  }
  // Journal files left by an older release keep their old mode; new ones take the database's.
  if (onDisk) for (const suffix of ['-wal', '-shm']) tightenFile(`${path}${suffix}`);
  return db;
}

/** Runs fn in one IMMEDIATE transaction; a lock held too long by another process becomes a clear error. */
export function writeTx<T>(db: Db, fn: () => T): T {
  try {
    return db.transaction(fn).immediate();
  } catch (err) {
    throw asBusy(err);
  }
}

/** SQLITE_BUSY and SQLITE_LOCKED (extended codes too) become AppError('busy'); anything else passes. */
function asBusy(err: unknown): unknown {
  return isSqliteLockError(err) ? new AppError('busy', BUSY_MESSAGE) : err;
}

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/** A prepared statement, prepared once per connection: hot paths (indexing) run them thousands of times. */
export function stmt(db: Db, text: string): Database.Statement {
  let cache = statements.get(db);
  if (!cache) {
    cache = new Map();
    statements.set(db, cache);
  }
  let s = cache.get(text);
  if (!s) {
    s = db.prepare(text);
    cache.set(text, s);
  }
  return s;
}
