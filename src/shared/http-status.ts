/**
 * One error-status map for every HTTP answer Org Brain gives ([H4] in docs/SECURITY.md): the
 * local hosts (the browser host, MCP over HTTP, the embedding endpoint; their guard is
 * src/platform/http-guard.ts) and the team server (src/server/errors.ts) answer an error with the
 * status its code maps to here. A few answers need a status the code alone does not say; those
 * carry it explicitly (`details.status`): 401 for a missing or wrong token (code `forbidden`), 413
 * for a body over its route's cap (code `refused`), the team server's 429.
 */
import type { ErrorCode } from './errors.ts';

/** Every code has a status, so a new code cannot reach a client as an unplanned 500. */
export const HTTP_STATUS_OF: Readonly<Record<ErrorCode, number>> = {
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
  // No host raises it as an answer of its own; kept at the 500 both maps gave it before they merged.
  'sync-offline': 500,
  internal: 500,
};

/** A missing, unknown or wrong token ([H1]); the code stays `forbidden`. */
export const STATUS_UNAUTHORIZED = 401;
/** A body over its route's cap ([H3]); the code is `refused`. */
export const STATUS_TOO_LARGE = 413;

/** The status for an error: an explicit numeric `details.status` wins, else the code's. */
export function httpStatusOf(code: ErrorCode, details?: Readonly<Record<string, unknown>>): number {
  const explicit = details?.status;
  if (typeof explicit === 'number') return explicit;
  return HTTP_STATUS_OF[code] ?? 500;
}
