/**
 * `brain import DIR` ([N17] in docs/PACKAGING.md): an export (layout.ts) back into an empty
 * workspace with the same ids. Everything is read and checked first — every line against its
 * schema, every scope, every edge's two ends, every original file against its sha256 — and only
 * then written, in one transaction: bad input names the file and line and changes nothing. The
 * exporting member's own scope becomes the importing member's; their teams come along. Vectors
 * are not in an export: what has none is embedded in the background when a host runs.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { z } from 'zod';
import { AppError } from '#shared/errors.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import { ftsInsert, isSearchable } from '../read/items.ts';
import { parseScope } from '../scope.ts';
import { EDGE_COLUMNS, ITEM_COLUMNS as SYNC_ITEM_COLUMNS } from '../sync/outbox.ts';
import { readState } from '../sync/state.ts';
import type { ExportCounts } from './export.ts';
import {
  type EdgeLine,
  EdgeLineSchema,
  FILES,
  FILES_DIR,
  FORMAT_VERSION,
  type ItemLine,
  ItemLineSchema,
  type Manifest,
  ManifestSchema,
  TeamLineSchema,
} from './layout.ts';

export type ImportReport = {
  folder: string;
  counts: ExportCounts;
  personalScope: { from: string; to: string } | null;
};

/** The lines of a JSON-lines file, read in 1 MB chunks (an export of a million sections is big). */
function* lines(path: string): Generator<{ n: number; text: string }> {
  const fd = openSync(path, 'r');
  const chunk = Buffer.alloc(1 << 20);
  let rest = Buffer.alloc(0);
  let n = 0;
  try {
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      const data = read > 0 ? Buffer.concat([rest, chunk.subarray(0, read)]) : rest;
      let start = 0;
      for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
        n++;
        const text = data.subarray(start, nl).toString('utf8');
        if (text.trim()) yield { n, text };
        start = nl + 1;
      }
      rest = Buffer.from(data.subarray(start));
      if (read === 0) {
        if (rest.length && rest.toString('utf8').trim()) yield { n: n + 1, text: rest.toString('utf8') };
        return;
      }
    }
  } finally {
    closeSync(fd);
  }
}

function bad(file: string, line: number, reason: string): AppError {
  return new AppError('validation-failed', `${file} line ${line}: ${reason}. Nothing was imported.`, {
    file,
    line,
  });
}

function parseLine<T extends z.ZodTypeAny>(
  schema: T,
  dir: string,
  file: string,
): Array<{ n: number; value: z.infer<T> }> {
  const path = join(dir, file);
  if (!existsSync(path)) throw new AppError('validation-failed', `${path} is missing. Nothing was imported.`);
  const out: Array<{ n: number; value: z.infer<T> }> = [];
  for (const { n, text } of lines(path)) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw bad(file, n, 'not JSON');
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw bad(file, n, `${issue?.path.join('.') || 'the line'}: ${issue?.message ?? 'invalid'}`);
    }
    out.push({ n, value: parsed.data });
  }
  return out;
}

function readManifest(dir: string): Manifest {
  const path = join(dir, FILES.manifest);
  if (!existsSync(path)) {
    throw new AppError(
      'validation-failed',
      `${dir} is not an Org Brain export: it has no ${FILES.manifest}. Nothing was imported.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new AppError('validation-failed', `${path} is not JSON. Nothing was imported.`);
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success) {
    throw new AppError(
      'validation-failed',
      `${path} is not an Org Brain export's manifest. Nothing was imported.`,
    );
  }
  if (parsed.data.version > FORMAT_VERSION) {
    throw new AppError(
      'unsupported',
      `${dir} was exported by a newer Org Brain (format ${parsed.data.version}; this one reads up to ${FORMAT_VERSION}). Nothing was imported.`,
    );
  }
  return parsed.data;
}

/** The workspace must be empty and on its own: an import adds to nothing and races no server. */
function checkEmpty(db: Db): void {
  if (readState(db).server) {
    throw new AppError(
      'conflict',
      'This workspace is connected to a workspace server: import into a new, unconnected workspace (brain --home NEW_FOLDER import DIR). Nothing was imported.',
    );
  }
  const held = (db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n;
  if (held > 0) {
    throw new AppError(
      'conflict',
      `This workspace already holds ${held} items: import into an empty workspace (brain --home NEW_FOLDER import DIR). Nothing was imported.`,
    );
  }
}

/** A file's original: inside the export's files/ folder (no `..`, no link out), with the right sha256. */
function originalOf(dir: string, item: ItemLine, n: number): Buffer {
  const path = item.path as string;
  const full = resolve(dir, path);
  const rel = relative(join(dir, FILES_DIR), full);
  if (isAbsolute(path) || rel.startsWith('..') || isAbsolute(rel)) {
    throw bad(FILES.items, n, `path ${path} is outside ${FILES_DIR}/`);
  }
  if (!existsSync(full)) throw bad(FILES.items, n, `${path} is missing`);
  const real = relative(realpathSync(join(dir, FILES_DIR)), realpathSync(full));
  if (real.startsWith('..') || isAbsolute(real))
    throw bad(FILES.items, n, `${path} links outside ${FILES_DIR}/`);
  const bytes = readFileSync(full);
  const hash = createHash('sha256').update(bytes).digest('hex');
  if (hash !== item.blob)
    throw bad(FILES.items, n, `${path} is not the file that was exported (its sha256 differs)`);
  return bytes;
}

/**
 * An item row's columns as an export carries them: the ones sync carries (src/engine/sync/outbox.ts)
 * and the local index_error and read_by_ocr (docs/OCR.md [O9]; 0 in an export made before it was
 * kept); workspace_id is this workspace's, vectors are made again.
 */
const ITEM_COLUMNS = [...SYNC_ITEM_COLUMNS, 'index_error', 'read_by_ocr'] as const;

/** An edge's props as the database keeps them: the exact text, or the JSON written back. */
function propsText(edge: EdgeLine): string | null {
  if (edge.props_text !== undefined) return edge.props_text;
  return edge.props === null || edge.props === undefined ? null : JSON.stringify(edge.props);
}

/** Reads and checks the export at `from`, then writes it into the (empty) workspace. */
export function importWorkspace(engine: Engine, from: string): ImportReport {
  const dir = resolve(from);
  if (!existsSync(dir)) throw new AppError('not-found', `${dir} does not exist. Nothing was imported.`);
  const manifest = readManifest(dir);
  const { db } = engine;
  checkEmpty(db);

  const personal = { from: `user:${manifest.member}`, to: `user:${engine.user}` };
  const items = parseLine(ItemLineSchema, dir, FILES.items);
  const edges = parseLine(EdgeLineSchema, dir, FILES.edges);
  const teams = existsSync(join(dir, FILES.teams)) ? parseLine(TeamLineSchema, dir, FILES.teams) : [];

  const counts: ExportCounts = { files: 0, sections: 0, notes: 0, entities: 0, edges: 0, facts: 0, bytes: 0 };
  const ids = new Set<string>();
  const originals: Buffer[] = [];
  for (const { n, value: item } of items) {
    if (ids.has(item.id)) throw bad(FILES.items, n, `id ${item.id} appears twice`);
    ids.add(item.id);
    try {
      item.scope = parseScope(item.scope);
    } catch (err) {
      throw bad(FILES.items, n, (err as Error).message.replace(/\.$/, ''));
    }
    if (item.scope === personal.from) item.scope = personal.to;
    if (item.storage_kind === 'file') {
      counts.files++;
      if (item.blob && item.path) {
        const bytes = originalOf(dir, item, n);
        counts.bytes += bytes.length;
        originals.push(bytes);
      }
    } else if (item.storage_kind === 'section') counts.sections++;
    else if (item.storage_kind === 'note') counts.notes++;
    else counts.entities++;
  }
  for (const { n, value: item } of items) {
    if (item.file_id && !ids.has(item.file_id)) {
      throw bad(FILES.items, n, `file_id ${item.file_id} is not an item of this export`);
    }
  }
  const edgeIds = new Set<string>();
  for (const { n, value: edge } of edges) {
    if (edgeIds.has(edge.id)) throw bad(FILES.edges, n, `id ${edge.id} appears twice`);
    edgeIds.add(edge.id);
    if (!ids.has(edge.from_id) || !ids.has(edge.to_id)) {
      throw bad(FILES.edges, n, `edge ${edge.id} joins an item that is not in ${FILES.items}`);
    }
    counts.edges++;
    if (edge.type === 'FACT') counts.facts++;
  }
  for (const { n, value: team } of teams) {
    try {
      parseScope(`team:${team.id}`);
    } catch (err) {
      throw bad(FILES.teams, n, (err as Error).message.replace(/\.$/, ''));
    }
  }

  // Blobs are content-addressed and written atomically: one put twice, or a put whose import then
  // fails, leaves only an unreferenced copy of bytes, never a wrong one.
  for (const bytes of originals) engine.blobs.put(bytes);
  originals.length = 0;

  writeTx(db, () => {
    checkEmpty(db);
    const now = new Date().toISOString();
    for (const { value: team } of teams) {
      stmt(db, 'INSERT OR IGNORE INTO teams (id, name, created_at) VALUES (?, ?, ?)').run(
        team.id,
        team.name,
        now,
      );
      stmt(db, 'INSERT OR IGNORE INTO team_members (team_id, user_id) VALUES (?, ?)').run(
        team.id,
        engine.user,
      );
    }
    const insertItem = stmt(
      db,
      `INSERT INTO items (workspace_id, ${ITEM_COLUMNS.join(', ')}) VALUES (?, ${ITEM_COLUMNS.map(() => '?').join(', ')})`,
    );
    for (const { value: item } of items) {
      const values = ITEM_COLUMNS.map((c) => (c === 'read_by_ocr' ? (item[c] ?? 0) : item[c]));
      const { lastInsertRowid } = insertItem.run(engine.workspaceId, ...values);
      if (isSearchable(item))
        ftsInsert(db, { rowid: Number(lastInsertRowid), label: item.label, body: item.body });
    }
    const insertEdge = stmt(
      db,
      `INSERT INTO edges (${EDGE_COLUMNS.join(', ')}) VALUES (${EDGE_COLUMNS.map(() => '?').join(', ')})`,
    );
    for (const { value: edge } of edges) {
      const row: EdgeLine = edge;
      insertEdge.run(...EDGE_COLUMNS.map((c) => (c === 'props' ? propsText(row) : row[c])));
    }
  });
  return { folder: dir, counts, personalScope: personal.from === personal.to ? null : personal };
}
