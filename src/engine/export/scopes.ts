/**
 * The scopes an export can hold ([N17] in docs/PACKAGING.md): an export is what one member could
 * see, so every row of it is in the org, in that member's own scope or in one of their teams
 * (teams.jsonl). import.ts and agent-brains.ts refuse a row in any other scope by its file and line.
 */
import { parseScope } from '../scope.ts';
import { bad } from './jsonl.ts';
import { FILES } from './layout.ts';

/**
 * The scopes an export of `member` can hold: the org, their own and their teams' (teams.jsonl).
 * A row in any other scope was not exported by them: refused, so an import writes nothing into
 * another member's scope or a team the export does not list. A listed team's rows go in only where
 * the importer is already a member of it; the others are left out, and nobody joins a team ([N20]).
 */
export function exportedScopes(member: string, teams: readonly string[]): ReadonlySet<string> {
  return new Set(['org', `user:${member}`, ...teams.map((t) => `team:${t}`)]);
}

/** `scope`, parsed, when an export of `member` can hold it; else the line is refused. */
export function checkScope(
  file: string,
  n: number,
  scope: string,
  member: string,
  seen: ReadonlySet<string>,
): string {
  let parsed: string;
  try {
    parsed = parseScope(scope);
  } catch (err) {
    throw bad(file, n, (err as Error).message.replace(/\.$/, ''));
  }
  if (!seen.has(parsed)) {
    throw bad(
      file,
      n,
      `scope ${parsed} is not one the exporting member ${member} could see (org, user:${member} or a team of ${FILES.teams})`,
    );
  }
  return parsed;
}
