/**
 * The words every surface uses for password-protected files (docs/FORMATS.md [F11], [F12]): a file
 * that needs a password fails indexing with a reason that starts with NEEDS_PASSWORD, and a wrong
 * password is refused with a message that starts with WRONG_PASSWORD. The app and the `brain`
 * command recognise the two by these prefixes.
 */
export const NEEDS_PASSWORD = 'password-protected';
export const WRONG_PASSWORD = 'wrong password for ';
/** pdf.js and the Office decryption read at most this many characters of a password. */
export const PASSWORD_MAX_CHARS = 1024;

export function needsPassword(reason: string | null | undefined): boolean {
  return typeof reason === 'string' && reason.startsWith(NEEDS_PASSWORD);
}

export function isWrongPassword(message: string | null | undefined): boolean {
  return typeof message === 'string' && message.startsWith(WRONG_PASSWORD);
}

/** The reason a file that needs a password fails with: what it is, and what to do. */
export function needsPasswordReason(what: string): string {
  return `${NEEDS_PASSWORD} ${what}: enter its password to index it (it is used once and never kept)`;
}

/** The health note of a file indexed with a password: a new version needs it again ([F14]). */
export const UNLOCKED_NOTE =
  'password-protected: indexed with a password that was not kept; a changed file needs it again';
