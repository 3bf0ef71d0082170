/** One error type for every boundary (CLI, IPC, HTTP, MCP). */
export const ERROR_CODES = [
  'not-found',
  'validation-failed',
  'conflict',
  'out-of-sync-migrations',
  'unsupported',
  'refused',
  'stale',
  'busy',
  'forbidden',
  'sync-offline',
  'engine-unavailable',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
}

export type TransferableError = { code: ErrorCode; message: string; details?: Record<string, unknown> };

/** What a writer that waited out the write lock is told (rule [B2] in docs/WORKSPACE.md). */
export const BUSY_MESSAGE =
  'The workspace is busy: another Org Brain process holds its write lock. Try again when that process has finished.';

/** SQLite's lock errors as better-sqlite3 reports them (extended codes such as SQLITE_BUSY_SNAPSHOT too). */
export function isSqliteLockError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

export function toTransferable(err: unknown): TransferableError {
  if (err instanceof AppError) return { code: err.code, message: err.message, details: err.details };
  // The safety net for every boundary: a lock error from any statement is `busy`, never `internal`.
  if (isSqliteLockError(err)) return { code: 'busy', message: BUSY_MESSAGE };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message };
}
