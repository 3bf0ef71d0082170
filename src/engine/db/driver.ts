/**
 * Opens the workspace database: WAL so readers never block the writer, a bounded busy timeout so
 * a writer waiting on another process fails clearly instead of hanging, sqlite-vec loaded.
 */
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { WRITE_LOCK_TIMEOUT_MS } from '../../shared/constants.ts';
import { AppError } from '../../shared/errors.ts';
import { migrate } from './migrate.ts';

export type Db = Database.Database;

export function openDb(path: string, options: { busyTimeoutMs?: number } = {}): Db {
  const db = new Database(path, {
    timeout: options.busyTimeoutMs ?? WRITE_LOCK_TIMEOUT_MS,
    // The desktop app's engine process runs on Electron's ABI and brings its own build of the binding.
    nativeBinding: process.env.BRAIN_SQLITE_BINDING || undefined,
  });
  sqliteVec.load(db);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // Checkpoint the WAL every ~16 MB instead of 4 MB: indexing writes in many short transactions.
  db.pragma('wal_autocheckpoint = 4000');
  db.pragma('foreign_keys = ON');
  migrate(db);
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

export function asBusy(err: unknown): unknown {
  const code = (err as { code?: string }).code;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new AppError(
      'busy',
      'The workspace is busy: another Org Brain process held the write lock too long. Try again in a moment.',
    );
  }
  return err;
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
