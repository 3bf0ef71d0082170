/**
 * Backups of the workspace database ([N15] in docs/PACKAGING.md): a copy taken with SQLite's
 * online backup API (never a file copy of a live database), written under a temporary name and
 * renamed once it passed `PRAGMA quick_check`, owner-only like the database ([M1] in
 * docs/SECURITY.md), kept for 7 days (the newest always). The vector mirror files beside the
 * database (`<db>.mirror-*`) are caches and are not backed up.
 */
import { readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ensurePrivateDir, ensurePrivateFile } from '#platform/private-files.ts';
import { AppError } from '#shared/errors.ts';
import type { Db } from '../db/driver.ts';

export type BackupInfo = { name: string; takenAt: string; size: number };

const DAY_MS = 24 * 60 * 60 * 1000;
/** How many days a backup is kept; the newest is kept however old it is. */
export const KEEP_DAYS = 7;
/** `workspace-2026-12-04T20-15-00Z.db`, with a label (`-before-restore`, `-2`) when one is asked for. */
const NAME_RE = /^workspace-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z(-[a-z0-9-]+)?\.db$/;
const PARTIAL_SUFFIX = '.partial';

/** Where a workspace's backups live: `<data folder>/backups`. */
export function backupDir(home: string): string {
  return join(home, 'backups');
}

export function backupName(at: Date, label?: string): string {
  const stamp = at.toISOString().slice(0, 19).replace(/:/g, '-');
  return `workspace-${stamp}Z${label ? `-${label}` : ''}.db`;
}

/** When a backup was taken, from its name; null for a name that is not a backup's. */
function takenAtOf(name: string): Date | null {
  const m = NAME_RE.exec(name);
  return m ? new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`) : null;
}

/** A backup's name as a user typed it, checked (no paths): its file in `dir`. */
export function backupPath(dir: string, name: string): string {
  if (!NAME_RE.test(name)) {
    throw new AppError('validation-failed', `"${name}" is not a backup's name (workspace-…Z.db).`);
  }
  return join(dir, name);
}

/** Newest first. */
export function listBackups(dir: string): BackupInfo[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: BackupInfo[] = [];
  for (const name of names) {
    const at = takenAtOf(name);
    if (!at) continue;
    try {
      out.push({ name, takenAt: at.toISOString(), size: statSync(join(dir, name)).size });
    } catch {
      // pruned by another process meanwhile
    }
  }
  return out.sort((a, b) => b.takenAt.localeCompare(a.takenAt) || b.name.localeCompare(a.name));
}

/** `PRAGMA quick_check` of a database file opened read-only: 'ok', or what it found. */
export function checkDatabaseFile(path: string): string {
  let db: Db;
  try {
    db = new Database(path, {
      readonly: true,
      fileMustExist: true,
      nativeBinding: process.env.BRAIN_SQLITE_BINDING || undefined,
    });
  } catch (err) {
    return (err as Error).message;
  }
  try {
    const rows = db.pragma('quick_check') as { quick_check: string }[];
    return rows.map((r) => r.quick_check).join('; ') || 'no answer';
  } catch (err) {
    return (err as Error).message;
  } finally {
    db.close();
  }
}

/** Pages copied per step of the backup, between which the host's event loop runs. */
const PAGES_PER_STEP = 1000;

/**
 * A step sees what other connections wrote since the last one and copies it again; a busy
 * workspace (indexing) could keep a backup from ever finishing. Once a step made no headway the
 * rest is copied in one step, inside one read transaction.
 */
function stepper(): (p: { remainingPages: number }) => number {
  let last = Number.POSITIVE_INFINITY;
  let stuck = false;
  return ({ remainingPages }) => {
    if (remainingPages >= last) stuck = true;
    last = remainingPages;
    // Not the page count seen: the database may have grown since. As many as better-sqlite3 takes.
    return stuck ? 0x7fffffff : PAGES_PER_STEP;
  };
}

/**
 * The copy keeps the database's WAL mode in its header; a backup is a closed file, so it is made a
 * rollback-journal database: reading it leaves no `-wal` and `-shm` files beside it.
 */
function asRollbackJournal(path: string): void {
  const db = new Database(path, {
    fileMustExist: true,
    nativeBinding: process.env.BRAIN_SQLITE_BINDING || undefined,
  });
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

const inFlight = new WeakMap<Db, Promise<BackupInfo>>();

/**
 * Takes a backup of `db` into `dir` and checks it. Two asked for at once on one connection (the
 * daily one and "Back up now") are one backup: they never overlap.
 */
export function takeBackup(
  db: Db,
  dir: string,
  options: { now?: Date; label?: string } = {},
): Promise<BackupInfo> {
  const running = inFlight.get(db);
  if (running && !options.label) return running;
  const promise = takeBackupNow(db, dir, options).finally(() => {
    if (inFlight.get(db) === promise) inFlight.delete(db);
  });
  if (!options.label) inFlight.set(db, promise);
  return promise;
}

async function takeBackupNow(db: Db, dir: string, options: { now?: Date; label?: string }) {
  ensurePrivateDir(dir);
  const at = options.now ?? new Date();
  let name = backupName(at, options.label);
  for (let n = 2; listBackups(dir).some((b) => b.name === name); n++) {
    name = backupName(at, options.label ? `${options.label}-${n}` : String(n));
  }
  const final = join(dir, name);
  const partial = `${final}${PARTIAL_SUFFIX}`;
  rmSync(partial, { force: true });
  ensurePrivateFile(partial); // SQLite writes into it and keeps its 0600 mode
  try {
    await db.backup(partial, { progress: stepper() });
    asRollbackJournal(partial);
    const check = checkDatabaseFile(partial);
    if (check !== 'ok')
      throw new AppError('internal', `The backup failed its check (${check}); it was deleted.`);
    // A crash before this rename leaves only a `.partial` file, which is never listed.
    renameSync(partial, final);
  } catch (err) {
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${partial}${suffix}`, { force: true });
    throw err;
  }
  return { name, takenAt: takenAtOf(name)?.toISOString() ?? at.toISOString(), size: statSync(final).size };
}

/** Deletes backups older than `keepDays`, never the newest; answers the names deleted. */
export function pruneBackups(dir: string, keepDays = KEEP_DAYS, now = new Date()): string[] {
  const [, ...older] = listBackups(dir);
  const cutoff = now.getTime() - keepDays * DAY_MS;
  const deleted: string[] = [];
  for (const b of older) {
    if (Date.parse(b.takenAt) >= cutoff) continue;
    rmSync(join(dir, b.name), { force: true });
    deleted.push(b.name);
  }
  return deleted;
}

/** True when there is no backup, or the newest is 24 hours old or older. */
export function backupDue(dir: string, now = new Date()): boolean {
  const newest = listBackups(dir)[0];
  return !newest || now.getTime() - Date.parse(newest.takenAt) >= DAY_MS;
}
