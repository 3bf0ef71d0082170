/** Runs numbered, forward-only migrations at open, each in its own transaction. */
import type Database from 'better-sqlite3';
import { AppError } from '../../shared/errors.ts';
import { MIGRATIONS, type Migration } from './migrations/index.ts';

export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): string[] {
  db.exec('CREATE TABLE IF NOT EXISTS __migrations__ (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = (db.prepare('SELECT id FROM __migrations__ ORDER BY rowid').all() as { id: string }[]).map(
    (r) => r.id,
  );
  applied.forEach((id, i) => {
    if (migrations[i]?.id !== id) {
      throw new AppError(
        'out-of-sync-migrations',
        `This workspace was written by a different version of Org Brain (migration ${id} is unknown here).`,
      );
    }
  });
  const pending = migrations.slice(applied.length);
  for (const m of pending) {
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO __migrations__ (id, applied_at) VALUES (?, ?)').run(
        m.id,
        new Date().toISOString(),
      );
    }).immediate();
  }
  return pending.map((m) => m.id);
}
