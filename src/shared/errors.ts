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

export function toTransferable(err: unknown): TransferableError {
  if (err instanceof AppError) return { code: err.code, message: err.message, details: err.details };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message };
}
