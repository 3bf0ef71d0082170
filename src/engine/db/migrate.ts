/**
 * Runs numbered, forward-only migrations at open, each in its own transaction. A database that is
 * already migrated is only read here (rule [B1] in docs/WORKSPACE.md): no CREATE, no INSERT, so
 * opening it never waits for another process's write lock.
 */
import type Database from 'better-sqlite3';
import { AppError } from '#shared/errors.ts';
import { MIGRATIONS, type Migration } from './migrations/index.ts';

function appliedIds(db: Database.Database): string[] {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__migrations__'")
    .get();
  if (!table) return [];
  return (db.prepare('SELECT id FROM __migrations__ ORDER BY rowid').all() as { id: string }[]).map(
    (r) => r.id,
  );
}

function assertKnown(applied: readonly string[], migrations: readonly Migration[]): void {
  applied.forEach((id, i) => {
    if (migrations[i]?.id !== id) {
      throw new AppError(
        'out-of-sync-migrations',
        `This workspace was written by a different version of Org Brain (migration ${id} is unknown here).`,
      );
    }
  });
}

export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): string[] {
  const seen = appliedIds(db);
  assertKnown(seen, migrations);
  if (seen.length >= migrations.length) return [];
  const ran: string[] = [];
  for (const m of migrations.slice(seen.length)) {
    db.transaction(() => {
      db.exec('CREATE TABLE IF NOT EXISTS __migrations__ (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
      // Another process may have migrated while this one waited for the lock: read again inside.
      const applied = appliedIds(db);
      assertKnown(applied, migrations);
      if (applied.includes(m.id)) return;
      db.exec(m.sql);
      m.run?.(db);
      db.prepare('INSERT INTO __migrations__ (id, applied_at) VALUES (?, ?)').run(
        m.id,
        new Date().toISOString(),
      );
      ran.push(m.id);
    }).immediate();
  }
  return ran;
}
