/** Settings kept in the workspace: small, typed, with defaults. */
import type { Settings } from '#shared/api/types.ts';
import type { Db } from '../db/driver.ts';

const DEFAULTS = { indexOnAdd: false };

export function readSettings(db: Db, extra: { dataFolder: string; user: string }): Settings {
  const row = db.prepare("SELECT value FROM settings WHERE key = 'indexOnAdd'").get() as
    | { value: string }
    | undefined;
  return { indexOnAdd: row ? row.value === 'true' : DEFAULTS.indexOnAdd, ...extra };
}

export function writeSettings(db: Db, patch: { indexOnAdd?: boolean }): void {
  if (patch.indexOnAdd !== undefined) {
    db.prepare(
      "INSERT INTO settings (key, value) VALUES ('indexOnAdd', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    ).run(String(patch.indexOnAdd));
  }
}
