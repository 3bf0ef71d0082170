/**
 * Who may run access checks, and the checks the Settings page keeps ([R4] in docs/RETRIEVAL.md).
 * A check searches as other members, so it is held to acting as another member ([R3]): the local
 * admin only, decided by `assertMayActAs` (src/engine/acting-as.ts), not by a rule of its own. The
 * admin is the replica's own member: the admin acting as another (`--as`) has that member's rights.
 * The kept checks are a workspace setting of this replica (the settings table; not synced).
 */
import { AppError } from '#shared/errors.ts';
import { assertMayActAs } from '../acting-as.ts';
import { writeTx } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import { connectedUser } from '../sync/state.ts';

const TEXT_KEY = 'accessChecks.text';
const SAVED_AT_KEY = 'accessChecks.savedAt';

const ACCESS_CHECKS = 'Access checks are for the local admin only, as they search as other members';

/**
 * Refuses with `forbidden` unless the engine acts as the local admin; answers the admin's id. The
 * refusal starts with `what` (which operation is the admin's), then says why this member is not.
 */
export function assertLocalAdmin(engine: Engine, what = ACCESS_CHECKS): string {
  const refusal = (reason: string) => new AppError('forbidden', `${what}: ${reason}.`);
  // Connected, the server's admin flag is the replica's own member's: not one acted as (`--as`).
  // Not connected, acting-as compares the member with the workspace's first local user itself.
  const connected = connectedUser(engine.db);
  if (connected && engine.user !== connected) {
    throw refusal(`${engine.user} is acted as (--as); run them as ${connected}, without --as`);
  }
  try {
    assertMayActAs(engine.db, engine.home, engine.user, engine.user);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'forbidden') throw err;
    // The reason acting-as gives, without its `--as USER` wording.
    const reason = /local admin only: ([\s\S]*?)\.?$/.exec(err.message)?.[1] ?? err.message;
    throw refusal(reason);
  }
  return engine.user;
}

export type KeptChecks = { text: string; savedAt: string | null };

function read(engine: Engine, key: string): string | null {
  const row = engine.db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as
    | { value: string }
    | undefined;
  return row?.value ?? null;
}

export function readKeptChecks(engine: Engine): KeptChecks {
  return { text: read(engine, TEXT_KEY) ?? '', savedAt: read(engine, SAVED_AT_KEY) };
}

export function keepChecks(engine: Engine, text: string): KeptChecks {
  const put = engine.db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  writeTx(engine.db, () => {
    put.run(TEXT_KEY, text);
    put.run(SAVED_AT_KEY, new Date().toISOString());
  });
  return readKeptChecks(engine);
}
