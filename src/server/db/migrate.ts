/**
 * Forward-only migrations, run at start. Each runs in its own transaction under an advisory
 * lock (several server processes may start together on one PostgreSQL) and is recorded in the
 * `schema_migrations` ledger. Refuses to run when the applied ids are not a prefix of the known
 * ones: that database belongs to another (newer or diverged) server build.
 */
import { AppError } from '#shared/errors.ts';
import { MIGRATIONS, type Migration } from './migrations/index.ts';
import type { Db, Queryable } from './types.ts';

const LOCK_KEY = 7_414_127; // arbitrary, stable: "migrations of this schema"

async function appliedIds(tx: Queryable): Promise<string[]> {
  const rows = await tx.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
  return rows.map((r) => r.id);
}

function assertPrefix(applied: readonly string[], known: readonly Migration[]): void {
  applied.forEach((id, i) => {
    if (known[i]?.id !== id) {
      throw new AppError(
        'out-of-sync-migrations',
        `The database has migration ${id}, which this server does not know: it was migrated by another server version.`,
      );
    }
  });
}

export async function migrate(
  db: Db,
  at: string,
  known: readonly Migration[] = MIGRATIONS,
): Promise<string[]> {
  const ran: string[] = [];
  for (const m of known) {
    const didRun = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
      await tx.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)',
      );
      const applied = await appliedIds(tx);
      assertPrefix(applied, known);
      if (applied.includes(m.id)) return false;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (id, applied_at) VALUES ($1, $2)', [m.id, at]);
      return true;
    });
    if (didRun) ran.push(m.id);
  }
  return ran;
}

/** Readiness: reachable, and every known migration applied. */
export async function isMigrated(db: Db, known: readonly Migration[] = MIGRATIONS): Promise<boolean> {
  try {
    const rows = await db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    return rows.length === known.length && rows.every((r, i) => r.id === known[i]?.id);
  } catch {
    return false;
  }
}
