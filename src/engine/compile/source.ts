/**
 * What the compile pass reads (docs/FACTS.md [K9], [K11]): a source is a file (its live sections,
 * or its own text when it has none) or a note, as pieces of text a claim can cite. Its content hash
 * covers what the model is shown and where claims would go (scope, pieces and their ids), so a
 * source whose hash equals its last done pass is skipped without a model call. Only the replica
 * whose member authored a source compiles it ([K11]).
 */
import { createHash } from 'node:crypto';
import { AppError } from '#shared/errors.ts';
import { originUser } from '#shared/ids.ts';
import { type Db, stmt } from '../db/driver.ts';
import { getRow, type ItemRow } from '../read/items.ts';

/** A piece of a source's text: a section, the file itself, or the note. Claims cite pieces. */
export type SourcePiece = { id: string; label: string; body: string };

export type CompileSource = {
  row: ItemRow;
  pieces: SourcePiece[];
  hash: string;
  /** The scopes the pass reads and writes in: org and the source's own ([K10]). */
  scopes: string[];
};

export type PassRow = {
  source_id: string;
  version: number;
  content_hash: string;
  model: string | null;
  state: 'done' | 'failed';
  facts: number;
  entities: number;
  cards: number;
  error: string | null;
  at: string;
};

/** The source as the pass reads it now, or null when it is not a live, indexed file or a note. */
export function loadSource(db: Db, id: string): CompileSource | null {
  const row = getRow(db, id);
  if (!row || row.retired_at !== null) return null;
  let pieces: SourcePiece[];
  if (row.storage_kind === 'note') pieces = [{ id: row.id, label: row.label, body: row.body }];
  else if (row.storage_kind === 'file' && row.indexed === 1) {
    const sections = stmt(
      db,
      `SELECT id, label, body FROM items WHERE file_id = ? AND storage_kind = 'section' AND retired_at IS NULL
       ORDER BY ordinal, id`,
    ).all(row.id) as SourcePiece[];
    pieces = sections.length ? sections : [{ id: row.id, label: row.label, body: row.body }];
  } else return null;
  pieces = pieces.filter((p) => p.body.trim() !== '');
  const hash = createHash('sha256')
    .update(JSON.stringify([row.storage_kind, row.scope, row.label, row.occurred_at, pieces]))
    .digest('hex');
  return { row, pieces, hash, scopes: [...new Set(['org', row.scope])] };
}

export function lastPass(db: Db, id: string): PassRow | undefined {
  return stmt(db, 'SELECT * FROM compile_passes WHERE source_id = ?').get(id) as PassRow | undefined;
}

/** A connected repository's document (docs/TREES.md): compiled only when named ([K11]). */
export function isTreeDocument(row: Pick<ItemRow, 'source_key'>): boolean {
  return row.source_key.startsWith('tree:');
}

/**
 * Why this replica does not compile `row` for `user`, or null when it does ([K11]): only files and
 * notes are sources, a file once indexed, and only the member who authored a source compiles it.
 */
export function compileRefusal(row: ItemRow, user: string): AppError | null {
  if (row.storage_kind === 'section')
    return new AppError('validation-failed', `${row.id} is a section: compile its file ${row.file_id}.`);
  if (row.storage_kind === 'entity')
    return new AppError(
      'validation-failed',
      `${row.id} is an entity: its page is compiled from its sources, compile those.`,
    );
  if (row.retired_at !== null)
    return new AppError(
      'validation-failed',
      `${row.id} (${row.label}) was removed: there is nothing to compile.`,
    );
  if (row.storage_kind === 'file' && row.indexed !== 1)
    return new AppError(
      'validation-failed',
      `${row.id} (${row.label}) is not indexed yet: run \`brain index ${row.id}\` first.`,
    );
  const author = originUser(row.origin_actor);
  if (author !== user)
    return new AppError(
      'refused',
      `${row.id} (${row.label}) was added by ${author ?? 'someone else'}: their replica compiles it, and its facts reach this one as links (docs/FACTS.md [K11]).`,
    );
  return null;
}

type PendingRow = {
  id: string;
  storage_kind: string;
  source_key: string;
  origin_actor: string;
  version: number;
  pass_version: number | null;
  state: string | null;
  at: string | null;
};

/**
 * The sources `user` compiles that wait for a pass: never compiled, changed since (another
 * version), or failed (only when that failure is older than `retryFailedBefore`, if given).
 * `notesOnly` leaves out files, but with `failedFiles` not those whose last pass failed, nor
 * audited ones no pass has read (a host compiles a file after its audit, retries it like a note,
 * and finds again one whose pass a closing host stopped, [K9]). A repository's documents
 * wait for no pass (they are compiled when named).
 */
export function pendingSources(
  db: Db,
  user: string,
  options: { notesOnly?: boolean; failedFiles?: boolean; retryFailedBefore?: string } = {},
): string[] {
  // Written out per case so each reads the (storage_kind, scope) index, not every section.
  const kinds = !options.notesOnly
    ? "(i.storage_kind = 'note' OR (i.storage_kind = 'file' AND i.indexed = 1))"
    : options.failedFiles
      ? `(i.storage_kind = 'note' OR (i.storage_kind = 'file' AND i.indexed = 1 AND (c.state = 'failed'
          OR ((c.source_id IS NULL OR c.version <> i.version)
            AND EXISTS (SELECT 1 FROM audit_passes a WHERE a.file_id = i.id)))))`
      : "i.storage_kind = 'note'";
  const rows = stmt(
    db,
    `SELECT i.id, i.storage_kind, i.source_key, i.origin_actor, i.version, c.version AS pass_version, c.state, c.at
     FROM items i LEFT JOIN compile_passes c ON c.source_id = i.id
     WHERE ${kinds} AND i.retired_at IS NULL
       AND (c.source_id IS NULL OR c.version <> i.version OR c.state = 'failed')
       -- Only this member's own (the exact test is originUser below): a host asks every few seconds,
       -- and the team's other notes, never compiled here, would otherwise be read each time.
       AND (i.origin_actor = @user OR substr(i.origin_actor, -length(@under)) = @under)
     ORDER BY i.rowid`,
  ).all({ user, under: `/user:${user}` }) as PendingRow[];
  return rows
    .filter((r) => originUser(r.origin_actor) === user && !isTreeDocument(r))
    .filter(
      (r) =>
        r.state !== 'failed' ||
        r.pass_version !== r.version ||
        options.retryFailedBefore === undefined ||
        (r.at ?? '') < options.retryFailedBefore,
    )
    .map((r) => r.id);
}
