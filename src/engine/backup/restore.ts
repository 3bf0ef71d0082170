/**
 * `brain backups restore NAME`: puts a backup in place of the workspace database, offline
 * ([N15] in docs/PACKAGING.md). The engine cannot swap the database under a running host (every
 * part of it holds the connection), so restore refuses while another process owns the workspace
 * (owner.json: the app, `brain serve`, `brain mcp --http`) or reads it. The backup is checked first
 * (a corrupt one changes nothing); then the current state is backed up ("before restore"), the
 * live database is checkpointed and moved aside with its journal files to
 * `<db>.before-restore-<time>`, and the backup is copied in its place. The vector mirror files
 * are caches: they are removed and rebuilt from the restored database.
 */
import { chmodSync, copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { PRIVATE_FILE_MODE } from '#platform/private-files.ts';
import { AppError } from '#shared/errors.ts';
import { openDb } from '../db/driver.ts';
import { readLiveOwner } from '../embed/remote.ts';
import { removeMirrorFiles } from '../search/mirror-file.ts';
import { ensureHome } from '../workspace.ts';
import { type BackupInfo, backupDir, backupPath, checkDatabaseFile, takeBackup } from './backups.ts';

export type RestoreReport = { restored: string; before: BackupInfo; movedAside: string };

/**
 * The backup exists and passes its check: asked before a host closes its engine to restore, so a
 * wrong name or a damaged file changes nothing, not even for a moment. Answers its path.
 */
export function checkRestorable(home: string, name: string): string {
  const dir = backupDir(home);
  const source = backupPath(dir, name);
  if (!existsSync(source)) throw new AppError('not-found', `No backup "${name}" in ${dir}.`);
  const check = checkDatabaseFile(source);
  if (check !== 'ok') {
    throw new AppError(
      'validation-failed',
      `The backup "${name}" is damaged (${check}); nothing was changed.`,
    );
  }
  return source;
}

export async function restoreBackup(home: string, name: string, now = new Date()): Promise<RestoreReport> {
  const dir = backupDir(home);
  const source = checkRestorable(home, name);
  const owner = readLiveOwner(home);
  if (owner) {
    throw new AppError(
      'busy',
      `Another Org Brain process (pid ${owner.pid}: the app or \`brain serve\`) has this workspace open; quit it, then restore.`,
    );
  }
  const { dbPath } = ensureHome(home);
  const db = openDb(dbPath);
  let before: BackupInfo;
  try {
    before = await takeBackup(db, dir, { now, label: 'before-restore' });
    // A reader in another process keeps the WAL from being emptied: that process still has it open.
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    if (result?.busy) {
      throw new AppError('busy', 'Another process is reading this workspace; close it, then restore.');
    }
  } finally {
    removeMirrorFiles(db);
    db.close();
  }
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const aside = `${dbPath}.before-restore-${stamp}`;
  renameSync(dbPath, aside);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(`${dbPath}${suffix}`)) renameSync(`${dbPath}${suffix}`, `${aside}${suffix}`);
  }
  const incoming = `${dbPath}.restoring`;
  rmSync(incoming, { force: true });
  copyFileSync(source, incoming); // the backup is a closed file nothing writes: a copy is its content
  chmodSync(incoming, PRIVATE_FILE_MODE);
  renameSync(incoming, dbPath);
  openDb(dbPath).close(); // a backup from an older release is migrated now, not by the next command
  return { restored: name, before, movedAside: aside };
}
