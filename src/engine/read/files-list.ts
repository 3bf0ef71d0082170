/** The Files grid (files.list): the files a member can see, filtered, sorted and paged. */
import type { ParsedInputOf } from '#shared/api/operation.ts';
import type { FilesList } from '#shared/api/ops/files.ts';
import type { FileList, FileRow, FileState } from '#shared/api/types.ts';
import type { Engine } from '../engine.ts';
import { isDatedNote } from '../ingest/document-date.ts';
import { visibleHealth } from '../knowledge/health.ts';
import type { ItemRow } from './items.ts';

const STATE_SQL = `CASE WHEN i.indexed = 1 THEN 'indexed'
  WHEN EXISTS (SELECT 1 FROM jobs j WHERE j.item_id = i.id AND j.kind = 'index' AND j.state IN ('queued','running')) THEN 'indexing'
  WHEN i.index_error IS NOT NULL THEN 'failed' ELSE 'added' END`;

const SORT_SQL: Record<ParsedInputOf<typeof FilesList>['sort'], string> = {
  name: 'i.label COLLATE NOCASE',
  kind: 'i.kind',
  size: 'i.size',
  addedBy: 'i.origin_actor',
  addedAt: 'i.created_at',
  scope: 'i.scope',
  state: 'state',
};

type FileSqlRow = ItemRow & { state: FileState; sections: number };

export function listFiles(engine: Engine, input: ParsedInputOf<typeof FilesList>): FileList {
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
