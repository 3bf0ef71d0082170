/**
 * files.unlock (docs/FORMATS.md [F12]): indexes one password-protected file with the password given,
 * here and now, in memory only. The password goes to the extraction worker with the bytes and is
 * dropped when that extraction ends: it is never written to the database (no job, no log, no
 * activity, no error message) and never synced (docs/SECURITY.md [U1]). A wrong password changes
 * nothing and says so.
 */
import { AppError } from '#shared/errors.ts';
import { isWrongPassword, NEEDS_PASSWORD, needsPassword, WRONG_PASSWORD } from '#shared/password.ts';
import { stmt } from '../db/driver.ts';
import { type IndexContext, type IndexOutcome, indexFile } from './indexer.ts';

/** No message that leaves here holds the password, whatever a library put in it. */
function scrub(message: string, password: string): string {
  if (password.trim().length < 3) return message;
  return message.split(password).join('…');
}

/**
 * Why a file could not be opened, with its name; for a file whose state does not say it needs a
 * password (its index error, src/shared/password.ts), that unlock is not what it is waiting for.
 */
function notOpened(file: { label: string; index_error: string | null }, message: string): string {
  const why = `${file.label}: ${message}`;
  if (needsPassword(file.index_error)) return why;
  return `${why.replace(/\.?$/, '.')} ${file.label} is not waiting for a password: unlock is for files whose state says "${NEEDS_PASSWORD}".`;
}

export async function unlockFile(
  ctx: IndexContext,
  file: { id: string; label: string; index_error: string | null },
  password: string,
): Promise<IndexOutcome> {
  try {
    // An index job still queued for the file would fail again without the password: it is done.
    const dropQueued = () =>
      stmt(
        ctx.db,
        "UPDATE jobs SET state = 'done', updated_at = ? WHERE kind = 'index' AND item_id = ? AND state = 'queued'",
      ).run(new Date().toISOString(), file.id);
    return await indexFile(ctx, file.id, undefined, dropQueued, password);
  } catch (err) {
    if (!(err instanceof AppError)) {
      throw new AppError('internal', scrub(err instanceof Error ? err.message : String(err), password));
    }
    if (isWrongPassword(err.message)) throw new AppError('refused', `${WRONG_PASSWORD}${file.label}`);
    throw new AppError(err.code, scrub(notOpened(file, err.message), password), { file: file.label });
  }
}
