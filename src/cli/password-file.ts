/**
 * `--password-file PATH` (docs/FORMATS.md [F12]): the password is read from a file, or from standard
 * input with `-`, never taken as an argument (which `ps` would show). One trailing newline is
 * dropped, nothing else: a password can be spaces.
 */
import { readFileSync } from 'node:fs';
import { AppError } from '#shared/errors.ts';
import { PASSWORD_MAX_CHARS } from '#shared/password.ts';

function stripOneNewline(text: string): string {
  if (text.endsWith('\r\n')) return text.slice(0, -2);
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

export function readPasswordFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new AppError('validation-failed', `Cannot read the password file ${path} (${why}).`);
  }
  const password = stripOneNewline(text);
  if (password === '') throw new AppError('validation-failed', `The password file ${path} is empty.`);
  if (password.length > PASSWORD_MAX_CHARS)
    throw new AppError(
      'validation-failed',
      `The password in ${path} is longer than ${PASSWORD_MAX_CHARS} characters.`,
    );
  return password;
}
