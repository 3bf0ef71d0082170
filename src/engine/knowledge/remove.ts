/**
 * Removing a source (docs/FACTS.md [K8]): a file (with its sections) or a note is retired, so
 * search and chat find it no more; the facts only it supported leave their pages by themselves
 * (they are derived from claims whose sources are live, [K3]); an entity left with no current fact
 * is named in the answer as an empty page. A connected repository's document is removed in the
 * repository, never here (its tree would no longer match what replicas build, docs/TREES.md [T13]).
 */
import { AppError } from '#shared/errors.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import { getRow, type ItemRow } from '../read/items.ts';
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

/**
 * Refuses what is not a source a person may take away ([K8], [K14] in docs/FACTS.md): a section
 * (its file is the source), an entity (its page follows its sources), a connected repository's
 * document (the tree would no longer match what replicas build, docs/TREES.md [T13]).
 */
export function assertRemovableSource(row: ItemRow, verb: 'remove' | 'erase'): void {
  if (row.storage_kind === 'section')
    throw new AppError('validation-failed', `${row.id} is a section of ${row.file_id}: ${verb} the file.`);
  if (row.storage_kind === 'entity')
    throw new AppError('validation-failed', `${row.id} is an entity: its page follows its sources.`);
  if (row.source_key.startsWith('tree:'))
    throw new AppError(
      'validation-failed',
      `${row.label} comes from a connected repository: delete it there (or disconnect the repository); the tree follows.`,
    );
}

/** The entity faces these items (or their sections) state facts about, with the facts current on each. */
export function factsBefore(
  db: Db,
  scopes: readonly string[],
  ids: readonly string[],
): Map<string, string[]> {
  const list = JSON.stringify(ids);
  const faces = (
    stmt(
      db,
      `SELECT DISTINCT e.to_id AS id FROM edges e JOIN items i ON i.id = e.from_id
       WHERE e.type = 'FACT' AND (i.id IN (SELECT value FROM json_each(?)) OR i.file_id IN (SELECT value FROM json_each(?)))`,
    ).all(list, list) as { id: string }[]
  ).map((r) => r.id);
  return new Map(faces.map((f) => [f, currentFacts(db, scopes, f)]));
}

function currentFacts(db: Db, scopes: readonly string[], face: string): string[] {
  try {
    return entityFacts(db, scopes, face).map((f) => f.id);
  } catch {
    return []; // a face out of the reader's sight has no facts for them
  }
}

/** The facts that stopped being current since `before`, and the faces left with none. */
export function factsLost(
  db: Db,
  scopes: readonly string[],
  before: ReadonlyMap<string, string[]>,
): Pick<RemoveResult, 'retiredFacts' | 'emptied'> {
  const out: Pick<RemoveResult, 'retiredFacts' | 'emptied'> = { retiredFacts: 0, emptied: [] };
  for (const [face, was] of before) {
    const now = new Set(currentFacts(db, scopes, face));
    out.retiredFacts += was.filter((f) => !now.has(f)).length;
    if (was.length > 0 && now.size === 0)
      out.emptied.push({ id: face, label: getRow(db, face)?.label ?? face });
  }
  return out;
}

export function removeSource(db: Db, user: string, scopes: readonly string[], id: string): RemoveResult {
  return writeTx(db, () => {
    const row = visibleRow(db, id, scopes);
    assertRemovableSource(row, 'remove');
    assertCanWrite(db, user, row.scope);
    const result: RemoveResult = { id, label: row.label, removed: false, retiredFacts: 0, emptied: [] };
    if (row.retired_at !== null) return result;
    const before = factsBefore(db, scopes, [id]);
    result.removed = retireFile(db, id);
    return { ...result, ...factsLost(db, scopes, before) };
  });
}
