/**
 * Scopes on the server ([V1], [V2] in docs/PRODUCT.md): a user sees `org`, `user:<self>` and `team:<T>`
 * for each team they belong to, and may write where they can see. The narrowest scope of several
 * is the one specific scope among them; two different specific scopes cannot be compared and
 * fail closed (null).
 */
import type { Queryable } from './db/types.ts';

export async function visibleScopes(db: Queryable, user: string): Promise<string[]> {
  const rows = await db.query<{ team_id: string }>(
    'SELECT team_id FROM team_members WHERE user_id = $1 ORDER BY team_id',
    [user],
  );
  return ['org', `user:${user}`, ...rows.map((r) => `team:${r.team_id}`)];
}

export async function userTeams(db: Queryable, user: string): Promise<string[]> {
  const rows = await db.query<{ team_id: string }>(
    'SELECT team_id FROM team_members WHERE user_id = $1 ORDER BY team_id',
    [user],
  );
  return rows.map((r) => r.team_id);
}

export function narrowestScope(a: string, b: string): string | null {
  if (a === b) return a;
  if (a === 'org') return b;
  if (b === 'org') return a;
  return null;
}
