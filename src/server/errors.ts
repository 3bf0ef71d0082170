/**
 * HTTP errors: the shared AppError codes, each answered as `{ error: { code, message } }` with a
 * status derived from the code. A few answers need a status the code alone does not say (401 for
 * a bad token, 413 for an oversize body, 429): those carry it in `details.status`.
 */
import { AppError, type ErrorCode } from '../shared/errors.ts';

const STATUS_OF: Partial<Record<ErrorCode, number>> = {
  'not-found': 404,
  'validation-failed': 400,
  forbidden: 403,
  refused: 422,
  unsupported: 415,
  stale: 409,
  conflict: 409,
  busy: 503,
  'out-of-sync-migrations': 503,
  'engine-unavailable': 503,
  internal: 500,
};

export function statusOf(err: AppError): number {
  const explicit = err.details?.status;
  if (typeof explicit === 'number') return explicit;
  return STATUS_OF[err.code] ?? 500;
}

/** 401: no token, an unknown one, or a revoked one. The message and `reason` say which ([S1]). */
export function unauthorized(message: string, reason: 'missing' | 'unknown' | 'revoked'): AppError {
  return new AppError('forbidden', message, { status: 401, reason });
}

export function tooLarge(limit: number): AppError {
  return new AppError('refused', `Request body too large: the limit is ${limit} bytes.`, { status: 413 });
}

export function badRequest(message: string): AppError {
  return new AppError('validation-failed', message);
}

export function forbidden(message: string): AppError {
  return new AppError('forbidden', message);
}

export function notFound(message: string): AppError {
  return new AppError('not-found', message);
}
