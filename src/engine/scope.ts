/**
 * Scopes ([V1], [V2] in docs/PRODUCT.md): `org`, `team:<id>`, `user:<id>`. Checked in code on every read,
 * before ranking. Missing scope means org. Anything unparseable fails closed.
 */
import { AppError } from '#shared/errors.ts';
import type { Db } from './db/driver.ts';

const SCOPE_RE = /^(org|team:[A-Za-z0-9._@-]{1,64}|user:[A-Za-z0-9._@-]{1,64})$/;

export function parseScope(input: string | null | undefined): string {
  const scope = (input ?? '').trim() || 'org';
  if (!SCOPE_RE.test(scope)) {
    throw new AppError(
      'validation-failed',
      `Unknown scope "${input}": use org, team:<id> or user:<id> (ids: letters, digits, . _ @ -).`,
    );
  }
  return scope;
}

/** Every scope a user can see: org, their own user scope, and each team they belong to. */
export function visibleScopes(db: Db, userId: string): string[] {
  const teams = db
    .prepare('SELECT team_id FROM team_members WHERE user_id = ? ORDER BY team_id')
    .all(userId) as {
    team_id: string;
  }[];
  return ['org', `user:${userId}`, ...teams.map((t) => `team:${t.team_id}`)];
}

export function canSee(visible: readonly string[], scope: string | null | undefined): boolean {
  return visible.includes(scope || 'org');
}

/** A user may write where they can read. */
export function assertCanWrite(db: Db, userId: string, scope: string): void {
  if (!canSee(visibleScopes(db, userId), scope)) {
    throw new AppError('forbidden', `${userId} cannot write in scope ${scope}: not a member of it.`);
  }
}

/**
 * The scope of something derived from several sources: the narrowest one. Two scopes that
 * cannot be compared (two teams, a team and a user) give null: access fails closed.
 */
export function narrowestScope(scopes: readonly string[]): string | null {
  const specific = [...new Set(scopes.map((s) => s || 'org'))].filter((s) => s !== 'org');
  if (specific.length === 0) return 'org';
  return specific.length === 1 ? (specific[0] ?? null) : null;
}
