/**
 * HTTP errors: the shared AppError codes, each answered as `{ error: { code, message } }` with a
 * status derived from the code. A few answers need a status the code alone does not say (401 for
 * a bad token, 413 for an oversize body, 429): those carry it in `details.status`.
 */
import { AppError } from '#shared/errors.ts';
import { httpStatusOf } from '#shared/http-status.ts';

/** The map is shared with the local hosts (src/shared/http-status.ts, [H4] in docs/SECURITY.md). */
export function statusOf(err: AppError): number {
  return httpStatusOf(err.code, err.details);
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
