/**
 * `brain import DIR` ([N17] in docs/PACKAGING.md): an export (layout.ts) back into an empty
 * workspace with the same ids. Everything is read and checked first — every line against its
 * schema, every scope against the ones the exporting member could see (scopes.ts), every item's id
 * against its kind, every edge's two ends, every original file (a regular file inside files/)
 * against its sha256 — and only then written, in one transaction: bad input names the file and
 * line and changes nothing; a crafted folder can neither write into another member's scope nor
 * make the import hang or run out of memory (jsonl.ts: regular files, lines up to 32 MiB). The
 * exporting member's own scope becomes the importing member's, and what is in it is theirs: its
 * items' and edges' origins name them ([N19]); what is in the org or a team keeps its author. The
 * agents' brains, observations and runs come along alike (agent-brains.ts). An import makes nobody
 * a member of a team: rows of a team the importer is not a member of here are checked, then left
 * out and counted ([N20]). Vectors are not in an export: what has none is embedded in the
 * background when a host runs.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { MAX_FILE_BYTES } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import { idPattern, originUser } from '#shared/ids.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import { ftsInsert, isSearchable } from '../read/items.ts';
import { narrowestScope, parseScope, visibleScopes } from '../scope.ts';
import { EDGE_COLUMNS, ITEM_COLUMNS as SYNC_ITEM_COLUMNS } from '../sync/outbox.ts';
import { renameOrigin } from '../sync/rekey.ts';
import { readState } from '../sync/state.ts';
import { checkNoAgentBrains, insertAgentBrains, readAgentBrains } from './agent-brains.ts';
import { type ExportCounts, emptyCounts } from './export.ts';
import { bad, jsonText, parseLines, parseOptionalLines, regularFile } from './jsonl.ts';
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
import { checkScope, exportedScopes } from './scopes.ts';

export type ImportReport = {
  folder: string;
  counts: ExportCounts;
  personalScope: { from: string; to: string } | null;
  /** [N20]: the teams the importer is not a member of here, and what of theirs was not written. */
  leftOut: { teams: string[]; counts: ExportCounts };
};

const MANIFEST_MAX_BYTES = 1 << 20;

function readManifest(dir: string): Manifest {
  const path = join(dir, FILES.manifest);
  if (!existsSync(path)) {
    throw new AppError(
      'validation-failed',
      `${dir} is not an Org Brain export: it has no ${FILES.manifest}. Nothing was imported.`,
    );
  }
  // A manifest is a few hundred bytes: a larger one, or no regular file, is read no further.
  regularFile(dir, FILES.manifest, MANIFEST_MAX_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new AppError('validation-failed', `${path} is not JSON. Nothing was imported.`);
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      'validation-failed',
      `${path} is not an Org Brain export's manifest (${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'invalid'}). Nothing was imported.`,
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

/** `rel` (a relative path as path.relative gives it) leaves its base: `..` or `../…`, not `..x`. */
function leaves(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

type Original = { id: string; full: string; path: string; blob: string; n: number; size: number };

/**
 * A file's original: a regular file inside the export's files/ folder (no `..`, no link out, at most
 * the largest file a workspace keeps), with the right sha256. Its bytes are read, hashed and let go:
 * a big export is never held in memory whole.
 */
function originalOf(dir: string, item: ItemLine, n: number): Original {
  const path = item.path as string;
  const full = resolve(dir, path);
  if (isAbsolute(path) || leaves(relative(join(dir, FILES_DIR), full))) {
    throw bad(FILES.items, n, `path ${path} is outside ${FILES_DIR}/`);
  }
  if (!existsSync(full)) throw bad(FILES.items, n, `${path} is missing`);
  // Not a folder, a pipe (reading one would wait forever) or a device: the original's bytes.
  const stat = statSync(full);
  if (!stat.isFile()) throw bad(FILES.items, n, `${path} is not a file`);
  // Against the export folder's own files/, so a files/ that is itself a link leads nowhere else.
  if (leaves(relative(join(realpathSync(dir), FILES_DIR), realpathSync(full))))
    throw bad(FILES.items, n, `${path} links outside ${FILES_DIR}/`);
  if (stat.size > MAX_FILE_BYTES) throw bad(FILES.items, n, `${path} is over ${MAX_FILE_BYTES} bytes`);
  const original = { id: item.id, full, path, blob: item.blob as string, n, size: stat.size };
  readOriginal(original);
  return original;
}

/** The original's bytes when they are still the exported ones (sha256), else the line is refused. */
function readOriginal(original: Original): Buffer {
  const bytes = readFileSync(original.full);
  if (createHash('sha256').update(bytes).digest('hex') !== original.blob) {
    throw bad(
      FILES.items,
      original.n,
      `${original.path} is not the file that was exported (its sha256 differs)`,
    );
  }
  return bytes;
}

/**
 * An item row's columns as an export carries them: the ones sync carries (src/engine/sync/outbox.ts)
 * and the local index_error and read_by_ocr (docs/OCR.md [O9]; 0 in an export made before it was
 * kept); workspace_id is this workspace's, vectors are made again.
 */
const ITEM_COLUMNS = [...SYNC_ITEM_COLUMNS, 'index_error', 'read_by_ocr'] as const;

/** An edge's props as the database keeps them: the exact text, or the JSON written back. */
function propsText(edge: EdgeLine, n: number): string | null {
  if (edge.props_text !== undefined) return edge.props_text;
  return edge.props === null || edge.props === undefined
    ? null
    : jsonText(FILES.edges, n, 'props', edge.props);
}

/**
 * [N19] An origin in the importer's own scope names the importer (an agent's or a pass's label
 * kept, as joining renames the local user's, src/engine/sync/rekey.ts): only the owner of a user
 * scope writes in it. One naming no member is kept: joining puts it under the local user.
 */
function ownOrigin(actor: string, importer: string): string {
  const named = originUser(actor);
  return named === null ? actor : renameOrigin(actor, named, importer);
}

/** Reads and checks the export at `from`, then writes it into the (empty) workspace. */
export function importWorkspace(engine: Engine, from: string): ImportReport {
  const dir = resolve(from);
  if (!existsSync(dir)) throw new AppError('not-found', `${dir} does not exist. Nothing was imported.`);
  const manifest = readManifest(dir);
  const { db } = engine;
  checkEmpty(db);

  const personal = { from: `user:${manifest.member}`, to: `user:${engine.user}` };
  const teams = parseOptionalLines(TeamLineSchema, dir, FILES.teams);
  const teamIds = new Set<string>();
  for (const { n, value: team } of teams) {
    try {
      parseScope(`team:${team.id}`);
    } catch (err) {
      throw bad(FILES.teams, n, (err as Error).message.replace(/\.$/, ''));
    }
    if (teamIds.has(team.id)) throw bad(FILES.teams, n, `team ${team.id} appears twice`);
    teamIds.add(team.id);
  }
  const seen = exportedScopes(manifest.member, [...teamIds]);
  // [N20] What the importer holds here: the org, their own scope, the teams they are a member of.
  const holds = new Set(visibleScopes(db, engine.user));
  const items = parseLines(ItemLineSchema, dir, FILES.items);
  const edges = parseLines(EdgeLineSchema, dir, FILES.edges);
  // Exports made before agent brains were exported have none of their files: no rows.
  const brains = readAgentBrains(
    dir,
    { workspaceId: manifest.workspace, user: manifest.member, scopes: seen },
    { user: engine.user, scopes: holds },
  );
  checkNoAgentBrains(db, brains);

  const counts: ExportCounts = { ...emptyCounts(), ...brains.counts };
  const leftOut: ExportCounts = { ...emptyCounts(), ...brains.leftOut.counts };
  const leftTeams = new Set(brains.leftOut.teams);
  const ids = new Set<string>();
  const originals: Original[] = [];
  for (const { n, value: item } of items) {
    if (ids.has(item.id)) throw bad(FILES.items, n, `id ${item.id} appears twice`);
    ids.add(item.id);
    // An agent record's id (a_, b_, o_) among items would be sent as that record when connected.
    if (!idPattern(item.storage_kind).test(item.id))
      throw bad(FILES.items, n, `id ${item.id} is not the id of a ${item.storage_kind}`);
    item.scope = checkScope(FILES.items, n, item.scope, manifest.member, seen);
    if (item.scope === personal.from) item.scope = personal.to;
    if (item.scope === personal.to) item.origin_actor = ownOrigin(item.origin_actor, engine.user);
    if (item.storage_kind === 'file' && item.blob && item.path) originals.push(originalOf(dir, item, n));
  }
  const files = new Set(items.filter((i) => i.value.storage_kind === 'file').map((i) => i.value.id));
  for (const { n, value: item } of items) {
    if (item.file_id && !ids.has(item.file_id)) {
      throw bad(FILES.items, n, `file_id ${item.file_id} is not an item of this export`);
    }
    if (item.storage_kind === 'section' && !files.has(item.file_id ?? '')) {
      throw bad(FILES.items, n, `file_id ${item.file_id ?? 'null'} is not a file of this export`);
    }
  }
  // [N20] Rows of a team the importer is not a member of here stay out, with what hangs on them:
  // the sections of a file left out, the edges with an end left out.
  const out = new Set<string>();
  for (const { value: item } of items) {
    if (holds.has(item.scope)) continue;
    out.add(item.id);
    leftTeams.add(item.scope.replace(/^team:/, ''));
  }
  for (const { value: item } of items) if (item.file_id && out.has(item.file_id)) out.add(item.id);
  const scopeOf = new Map(items.map(({ value: item }) => [item.id, item.scope]));
  const edgeIds = new Set<string>();
  const props = new Map<string, string | null>();
  for (const { n, value: edge } of edges) {
    if (edgeIds.has(edge.id)) throw bad(FILES.edges, n, `id ${edge.id} appears twice`);
    edgeIds.add(edge.id);
    if (!ids.has(edge.from_id) || !ids.has(edge.to_id)) {
      throw bad(FILES.edges, n, `edge ${edge.id} joins an item that is not in ${FILES.items}`);
    }
    props.set(edge.id, propsText(edge, n));
    // [N19] An edge's scope is the narrowest of its ends' ([S4]): in the importer's own, it is theirs.
    const scope = narrowestScope([scopeOf.get(edge.from_id) ?? 'org', scopeOf.get(edge.to_id) ?? 'org']);
    if (scope === personal.to) edge.origin_actor = ownOrigin(edge.origin_actor, engine.user);
  }
  const keptItems = items.filter(({ value: item }) => !out.has(item.id));
  const keptEdges = edges.filter(({ value: e }) => !out.has(e.from_id) && !out.has(e.to_id));
  const tally = (c: ExportCounts, list: typeof items, edgeList: typeof edges) => {
    for (const { value: item } of list) {
      if (item.storage_kind === 'file') c.files++;
      else if (item.storage_kind === 'section') c.sections++;
      else if (item.storage_kind === 'note') c.notes++;
      else c.entities++;
    }
    for (const { value: edge } of edgeList) {
      c.edges++;
      if (edge.type === 'FACT') c.facts++;
    }
  };
  tally(counts, keptItems, keptEdges);
  tally(
    leftOut,
    items.filter(({ value: item }) => out.has(item.id)),
    edges.filter(({ value: e }) => out.has(e.from_id) || out.has(e.to_id)),
  );
  const keptOriginals = originals.filter((o) => !out.has(o.id));
  for (const o of originals) {
    if (out.has(o.id)) leftOut.bytes += o.size;
    else counts.bytes += o.size;
  }

  // Blobs are content-addressed and written atomically: one put twice, or a put whose import then
  // fails, leaves only an unreferenced copy of bytes, never a wrong one.
  // Read again, one at a time, and checked again: a file changed since it was checked is refused.
  for (const original of keptOriginals) engine.blobs.put(readOriginal(original));

  // [N20] No team and no membership is written: teams.jsonl says only which scopes the export holds.
  writeTx(db, () => {
    checkEmpty(db);
    checkNoAgentBrains(db, brains);
    const insertItem = stmt(
      db,
      `INSERT INTO items (workspace_id, ${ITEM_COLUMNS.join(', ')}) VALUES (?, ${ITEM_COLUMNS.map(() => '?').join(', ')})`,
    );
    for (const { value: item } of keptItems) {
      const values = ITEM_COLUMNS.map((c) => (c === 'read_by_ocr' ? (item[c] ?? 0) : item[c]));
      const { lastInsertRowid } = insertItem.run(engine.workspaceId, ...values);
      if (isSearchable(item))
        ftsInsert(db, { rowid: Number(lastInsertRowid), label: item.label, body: item.body });
    }
    const insertEdge = stmt(
      db,
      `INSERT INTO edges (${EDGE_COLUMNS.join(', ')}) VALUES (${EDGE_COLUMNS.map(() => '?').join(', ')})`,
    );
    for (const { value: edge } of keptEdges) {
      const row: EdgeLine = edge;
      insertEdge.run(...EDGE_COLUMNS.map((c) => (c === 'props' ? (props.get(row.id) ?? null) : row[c])));
    }
    insertAgentBrains(db, engine.workspaceId, brains);
  });
  return {
    folder: dir,
    counts,
    personalScope: personal.from === personal.to ? null : personal,
    leftOut: { teams: [...leftTeams].sort(), counts: leftOut },
  };
}
