/**
 * docs/FORMATS.md [F13]: the password of a protected file is never kept, so its bytes cannot be read
 * again. Reading it back answers from the text indexed when it was unlocked: a passage is its
 * section's body, the whole file its live sections in order.
 */
import { AppError } from '#shared/errors.ts';
import { needsPassword, UNLOCKED_NOTE } from '#shared/password.ts';
import { type Db, stmt } from '../db/driver.ts';
import { type ItemRow, parseHealth } from './items.ts';

/**
 * Reads the bytes; a file that needs its password is answered by `indexed` instead. A file indexed
 * with a password (its UNLOCKED_NOTE) is answered by `indexed` at once: trying its bytes would
 * only open the encrypted file in the worker again to fail, on every read of every passage.
 */
export async function lockedOr(
  file: Pick<ItemRow, 'health'>,
  read: () => Promise<string>,
  indexed: () => string,
): Promise<string> {
  if (parseHealth(file.health).includes(UNLOCKED_NOTE)) return indexed();
  try {
    return await read();
  } catch (err) {
    if (err instanceof AppError && needsPassword(err.message)) return indexed();
    throw err;
  }
}

/** The whole indexed text of a file: its live sections' bodies, in order, a blank line apart. */
export function indexedText(db: Db, file: ItemRow): string {
  const rows = stmt(
    db,
    `SELECT body FROM items WHERE file_id = ? AND storage_kind = 'section' AND retired_at IS NULL
     ORDER BY ordinal`,
  ).all(file.id) as { body: string }[];
  if (rows.length === 0)
    throw new AppError(
      'refused',
      `${file.label} is password-protected and not unlocked yet: enter its password to index it.`,
    );
  return rows.map((r) => r.body).join('\n\n');
}
