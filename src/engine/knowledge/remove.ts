/**
 * Removing a source (docs/FACTS.md [K8]): a file (with its sections) or a note is retired, so
 * search and chat find it no more; the facts only it supported leave their pages by themselves
 * (they are derived from claims whose sources are live, [K3]); an entity left with no current fact
 * is named in the answer as an empty page. A connected repository's document is removed in the
 * repository, never here (its tree would no longer match what replicas build, docs/TREES.md [T13]).
 */
import { AppError } from '#shared/errors.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import { visibleRow } from '../read/read.ts';
import { assertCanWrite } from '../scope.ts';
import { entityFacts } from './facts.ts';
import { retireFile } from './retire.ts';

export type RemoveResult = {
  id: string;
  label: string;
  /** False when it was retired already: nothing changed. */
  removed: boolean;
  /** Facts that were current and are not any more. */
  retiredFacts: number;
  /** Entities left with no current fact. */
  emptied: { id: string; label: string }[];
};

/** The entity faces the source (or one of its sections) states facts about. */
function factFaces(db: Db, id: string): string[] {
  return (
    stmt(
      db,
      `SELECT DISTINCT e.to_id AS id FROM edges e JOIN items i ON i.id = e.from_id
       WHERE e.type = 'FACT' AND (i.id = ? OR i.file_id = ?)`,
    ).all(id, id) as { id: string }[]
  ).map((r) => r.id);
}

export function removeSource(db: Db, user: string, scopes: readonly string[], id: string): RemoveResult {
  return writeTx(db, () => {
    const row = visibleRow(db, id, scopes);
    if (row.storage_kind === 'section')
      throw new AppError('validation-failed', `${id} is a section of ${row.file_id}: remove the file.`);
    if (row.storage_kind === 'entity')
      throw new AppError('validation-failed', `${id} is an entity: its page follows its sources.`);
    if (row.source_key.startsWith('tree:'))
      throw new AppError(
        'validation-failed',
        `${row.label} comes from a connected repository: delete it there (or disconnect the repository); the tree follows.`,
      );
    assertCanWrite(db, user, row.scope);
    const result: RemoveResult = { id, label: row.label, removed: false, retiredFacts: 0, emptied: [] };
    if (row.retired_at !== null) return result;
    const faces = factFaces(db, id);
    const before = new Map(faces.map((f) => [f, entityFacts(db, scopes, f).map((x) => x.id)]));
    result.removed = retireFile(db, id);
    for (const face of faces) {
      const now = new Set(entityFacts(db, scopes, face).map((x) => x.id));
      const was = before.get(face) ?? [];
      result.retiredFacts += was.filter((f) => !now.has(f)).length;
      if (was.length > 0 && now.size === 0) {
        const entity = stmt(db, 'SELECT label FROM items WHERE id = ?').get(face) as
          | { label: string }
          | undefined;
        result.emptied.push({ id: face, label: entity?.label ?? face });
      }
    }
    return result;
  });
}
