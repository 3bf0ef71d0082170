/** The Files grid and the dossier: what the app shows of items, always through the user's scopes. */

import type { ParsedInputs } from '#shared/api/contract.ts';
import type { Dossier, FileList, FileRow, FileState, ItemView, OutlineEntry } from '#shared/api/types.ts';
import { AppError } from '#shared/errors.ts';
import type { FileFormat } from '#shared/types.ts';
import type { Engine } from '../engine.ts';
import { datedFrom, isDatedNote } from '../ingest/document-date.ts';
import { readWholeText } from '../ingest/index.ts';
import { entityDossier } from '../knowledge/entity-dossier.ts';
import { visibleHealth } from '../knowledge/health.ts';
import { type ItemRow, parseLocator } from '../read/items.ts';
import { visibleRow } from '../read/read.ts';
import { citationOf } from '../search/search.ts';

type Span = { start: number; end: number };

/** A range inside the item's own text (a mention), moved to where that text sits in `text`. */
function spanIn(text: string, offset: number, at: Span | undefined): Span | null {
  if (!at || offset + at.end > text.length) return null;
  return { start: offset + at.start, end: offset + at.end };
}

const STATE_SQL = `CASE WHEN i.indexed = 1 THEN 'indexed'
  WHEN EXISTS (SELECT 1 FROM jobs j WHERE j.item_id = i.id AND j.kind = 'index' AND j.state IN ('queued','running')) THEN 'indexing'
  WHEN i.index_error IS NOT NULL THEN 'failed' ELSE 'added' END`;

const SORT_SQL: Record<ParsedInputs['files.list']['sort'], string> = {
  name: 'i.label COLLATE NOCASE',
  kind: 'i.kind',
  size: 'i.size',
  addedBy: 'i.origin_actor',
  addedAt: 'i.created_at',
  scope: 'i.scope',
  state: 'state',
};

type FileSqlRow = ItemRow & { state: FileState; sections: number };

export function listFiles(engine: Engine, input: ParsedInputs['files.list']): FileList {
  const scopes = engine.scopes();
  const where = [
    `i.storage_kind = 'file'`,
    'i.retired_at IS NULL',
    'i.scope IN (SELECT value FROM json_each(?))',
  ];
  const args: unknown[] = [JSON.stringify(scopes)];
  if (input.q?.trim()) {
    where.push(`i.label LIKE ? ESCAPE '\\'`);
    args.push(`%${input.q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (input.kinds?.length) {
    where.push('i.kind IN (SELECT value FROM json_each(?))');
    args.push(JSON.stringify(input.kinds));
  }
  if (input.scopes?.length) {
    where.push('i.scope IN (SELECT value FROM json_each(?))');
    args.push(JSON.stringify(input.scopes));
  }
  const base = `FROM items i WHERE ${where.join(' AND ')}`;
  const stateFilter = input.states?.length ? 'WHERE state IN (SELECT value FROM json_each(?))' : '';
  const stateArgs = input.states?.length ? [JSON.stringify(input.states)] : [];
  // Sort and page over a narrow projection (the sort key and the rowid), then load just the page:
  // sorting 100,000 whole rows would cost ten times more.
  const dir = input.dir === 'asc' ? 'ASC' : 'DESC';
  const key = SORT_SQL[input.sort];
  const needsState = key === 'state' || stateFilter !== '';
  const narrow = `SELECT i.rowid AS rowid, ${key === 'state' ? STATE_SQL : key} AS k${needsState ? `, ${STATE_SQL} AS state` : ''} ${base}`;
  const total = (
    engine.db.prepare(`SELECT COUNT(*) AS n FROM (${narrow}) ${stateFilter}`).get(...args, ...stateArgs) as {
      n: number;
    }
  ).n;
  const page = engine.db
    .prepare(`SELECT rowid FROM (${narrow}) ${stateFilter} ORDER BY k ${dir}, rowid ${dir} LIMIT ? OFFSET ?`)
    .all(...args, ...stateArgs, input.limit, input.offset) as { rowid: number }[];
  const loaded = engine.db
    .prepare(
      `SELECT i.*, ${STATE_SQL} AS state,
         (SELECT COUNT(*) FROM items s WHERE s.file_id = i.id AND s.storage_kind = 'section' AND s.retired_at IS NULL) AS sections
       FROM items i WHERE i.rowid IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(page.map((p) => p.rowid))) as FileSqlRow[];
  const byRowid = new Map(loaded.map((r) => [r.rowid, r]));
  const rows = page.map((p) => byRowid.get(p.rowid)).filter((r): r is FileSqlRow => r !== undefined);
  // Facets cost two scans: only the first page carries them (the grid reads them from page 0).
  const offered = input.offset === 0 ? facets(engine, scopes) : { kinds: [], scopes: [] };
  // Health may name another file (same bytes): only one this user can see (src/engine/knowledge/health.ts).
  const fileRows = rows.map((r) => toFileRow(r, visibleHealth(engine.db, r, scopes)));
  return { total, rows: fileRows, facets: offered };
}

function facets(engine: Engine, scopes: readonly string[]): FileList['facets'] {
  const list = (column: string) =>
    (
      engine.db
        .prepare(
          `SELECT DISTINCT ${column} AS v FROM items WHERE storage_kind = 'file' AND retired_at IS NULL
           AND scope IN (SELECT value FROM json_each(?)) ORDER BY v`,
        )
        .all(JSON.stringify(scopes)) as { v: string }[]
    ).map((r) => r.v);
  return { kinds: list('kind'), scopes: list('scope') };
}

function toFileRow(r: FileSqlRow, health: string[]): FileRow {
  return {
    id: r.id,
    label: r.label,
    path: r.canonical_value ?? null,
    kind: r.kind,
    format: r.format,
    size: r.size ?? 0,
    addedBy: r.origin_actor,
    addedAt: r.created_at,
    scope: r.scope,
    state: r.state,
    reason: r.state === 'failed' ? r.index_error : null,
    // The `dated by …` note is the date's provenance, shown in the dossier, not a health badge.
    health: health.filter((n) => !isDatedNote(n)),
    sections: r.sections,
    version: r.version,
  };
}

/** `health`: the notes this viewer may see (visibleHealth in src/engine/knowledge/health.ts). */
function toItemView(r: ItemRow, health: string[]): ItemView {
  const from = r.storage_kind === 'file' ? datedFrom(health) : null;
  return {
    id: r.id,
    storageKind: r.storage_kind,
    kind: r.kind,
    label: r.label,
    scope: r.scope,
    origin: { actor: r.origin_actor, source: r.origin_source, run: r.origin_run, at: r.origin_at },
    occurredAt: r.occurred_at,
    dated: from && r.occurred_at ? { at: r.occurred_at, from } : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: r.version,
    retiredAt: r.retired_at,
    indexed: r.indexed === 1,
    size: r.size,
    format: r.format,
    path: r.canonical_value ?? null,
    health: health.filter((n) => !isDatedNote(n)),
    reason: r.index_error,
    locator: parseLocator(r.locator),
  };
}

function outlineOf(engine: Engine, fileId: string): OutlineEntry[] {
  const rows = engine.db
    .prepare(
      `SELECT id, label, ordinal, locator FROM items WHERE file_id = ? AND storage_kind = 'section'
       AND retired_at IS NULL ORDER BY ordinal`,
    )
    .all(fileId) as Pick<ItemRow, 'id' | 'label' | 'ordinal' | 'locator'>[];
  return rows.map((r) => {
    const loc = parseLocator(r.locator);
    return {
      id: r.id,
      label: r.label,
      ordinal: r.ordinal ?? 0,
      lineStart: loc && 'lineStart' in loc ? loc.lineStart : null,
      page: loc?.type === 'pdf' ? loc.page : null,
    };
  });
}

/** The offset in `text` where line `line` (1-based) starts. */
function offsetOfLine(text: string, line: number): number {
  let offset = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return offset;
}

/** Where a section's body sits in its file's whole text, searched from where its locator says. */
function locateSection(text: string, section: ItemRow): { start: number; end: number } | null {
  const loc = parseLocator(section.locator);
  // Text and DOCX locators count lines in the whole text; a PDF's lines count within its page.
  const hint = loc && loc.type !== 'pdf' && 'lineStart' in loc ? offsetOfLine(text, loc.lineStart) : 0;
  const near = text.indexOf(section.body, Math.max(0, hint - 2000));
  const start = near >= 0 ? near : text.indexOf(section.body);
  return start >= 0 ? { start, end: start + section.body.length } : null;
}

export async function dossier(engine: Engine, id: string, at?: Span): Promise<Dossier> {
  const scopes = engine.scopes();
  const item = visibleRow(engine.db, id, scopes);
  const view = (r: ItemRow) => toItemView(r, visibleHealth(engine.db, r, scopes));
  if (item.storage_kind === 'entity') {
    return {
      item: view(item),
      file: null,
      outline: [],
      text: null,
      textNote: null,
      highlight: null,
      citation: null,
      entity: entityDossier(engine.db, scopes, item),
    };
  }
  if (item.storage_kind === 'note') {
    return {
      item: view(item),
      file: null,
      outline: [],
      text: item.body,
      textNote: null,
      highlight: spanIn(item.body, 0, at),
      citation: null,
    };
  }
  const file =
    item.storage_kind === 'file' ? item : item.file_id ? visibleRow(engine.db, item.file_id, scopes) : null;
  if (!file) throw new AppError('not-found', `No file for ${id}.`);
  const base = {
    item: view(item),
    file: view(file),
    outline: outlineOf(engine, file.id),
    citation: citationOf(item, file),
  };
  if (item.storage_kind === 'section' && (item.blob !== file.blob || item.retired_at !== null)) {
    return {
      ...base,
      text: item.body,
      textNote: `${file.label} has changed since this passage was indexed; showing the passage as it was.`,
      highlight: spanIn(item.body, 0, at) ?? { start: 0, end: item.body.length },
    };
  }
  if (!file.blob || !file.format)
    return { ...base, text: null, textNote: 'No stored bytes.', highlight: null };
  try {
    const text = await readWholeText(engine.blobs.get(file.blob), file.format as FileFormat);
    const section = item.storage_kind === 'section' ? locateSection(text, item) : null;
    const highlight = (at ? spanIn(text, section?.start ?? 0, at) : null) ?? section;
    return {
      ...base,
      text,
      textNote: file.indexed === 1 ? null : 'Not indexed yet: not answerable.',
      highlight,
    };
  } catch (err) {
    return {
      ...base,
      text: null,
      textNote: `Cannot show the text: ${(err as Error).message}`,
      highlight: null,
    };
  }
}
