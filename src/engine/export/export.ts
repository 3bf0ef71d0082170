/**
 * `brain export` and File → Export ([N16] in docs/PACKAGING.md): everything the member can see —
 * original files, sections, notes, entities, facts and edges, with their scopes and origins, and
 * the agents' brains with their versions, observations and the member's runs (agent-brains.ts) — as
 * plain files and JSON lines (layout.ts). It is written into `<out>.partial-…` beside the target
 * and renamed into place only when whole, so a crash or a cancel never leaves a folder that looks
 * like a finished export. Reading never blocks the host for long: rows go out in batches.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { AppError } from '#shared/errors.ts';
import type { Db } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import type { ItemRow } from '../read/items.ts';
import { canSee, visibleScopes } from '../scope.ts';
import { type AgentCounts, agentRowsTotal, writeAgentBrains } from './agent-brains.ts';
import { jsonOrText, LineFile } from './jsonl.ts';
import {
  FILES,
  FILES_DIR,
  FORMAT,
  FORMAT_VERSION,
  type ItemLine,
  type Manifest,
  NameBook,
  NOTES_DIR,
  README_TEXT,
  RETIRED_DIR,
  safeFileName,
} from './layout.ts';

/** Counts of nothing yet: an export's or an import's before its first row. */
export function emptyCounts(): ExportCounts {
  return {
    files: 0,
    sections: 0,
    notes: 0,
    entities: 0,
    edges: 0,
    facts: 0,
    bytes: 0,
    agents: 0,
    agentVersions: 0,
    observations: 0,
    runs: 0,
  };
}

export type ExportCounts = {
  files: number;
  sections: number;
  notes: number;
  entities: number;
  edges: number;
  facts: number;
  bytes: number;
} & AgentCounts;

type ExportProgress = { phase: 'items' | 'edges' | 'done'; done: number; total: number };

type ExportOptions = { onProgress?: (p: ExportProgress) => void; signal?: AbortSignal };

const BATCH = 500;

/** The target must be new or an empty folder: an export never mixes with or replaces other files. */
function checkTarget(out: string): void {
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory()) {
    throw new AppError(
      'validation-failed',
      `${out} is a file: export into a new or empty folder. Nothing was written.`,
    );
  }
  if (readdirSync(out).length > 0) {
    throw new AppError(
      'validation-failed',
      `${out} is not empty: export into a new or empty folder. Nothing was written.`,
    );
  }
}

function itemLine(row: ItemRow): ItemLine {
  const { rowid: _rowid, workspace_id: _ws, embedded_model: _model, ...line } = row;
  return line;
}

function total(db: Db, table: 'items' | 'edges'): number {
  return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new AppError('refused', 'The export was stopped. Nothing was written.');
}

/**
 * An edge's props as JSON when they read back to the very same text; else, kept exact, as
 * `props_text` (an import must give back what was exported, byte for byte).
 */
function edgeLine<E extends { props: string | null }>(
  edge: E,
): Omit<E, 'props'> & { props: unknown; props_text?: string } {
  const { value, text } = jsonOrText(edge.props);
  return text === undefined ? { ...edge, props: value } : { ...edge, props: null, props_text: text };
}

function parseProps(props: string | null): Record<string, unknown> {
  try {
    const parsed: unknown = props ? JSON.parse(props) : {};
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

type FactLine = {
  id: string;
  entity: string;
  entityId: string;
  statement: string;
  attribute: string | null;
  validAt: string | null;
  source: string;
  sourceId: string;
  quote: string | null;
  scope: string;
  retired: boolean;
};

/** A FACT edge in plain words (docs/FACTS.md [K1]: the claim's props are on the edge). */
function factLine(
  edge: { id: string; from_id: string; to_id: string; props: string | null; retired_at: string | null },
  labels: Map<string, { label: string; scope: string }>,
): FactLine {
  const props = parseProps(edge.props);
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    id: edge.id,
    entity: labels.get(edge.to_id)?.label ?? edge.to_id,
    entityId: edge.to_id,
    statement: str(props.statement) ?? '',
    attribute: str(props.attribute),
    validAt: str(props.validAt),
    source: labels.get(edge.from_id)?.label ?? edge.from_id,
    sourceId: edge.from_id,
    quote: str(props.quote),
    scope: labels.get(edge.from_id)?.scope ?? 'org',
    retired: edge.retired_at !== null,
  };
}

/** Writes the export; answers the folder it is in and how many of each it holds. */
export async function exportWorkspace(
  engine: Engine,
  target: string,
  options: ExportOptions = {},
): Promise<{ folder: string; counts: ExportCounts }> {
  const out = resolve(target);
  checkTarget(out);
  mkdirSync(dirname(out), { recursive: true });
  const work = join(dirname(out), `.${basename(out)}.partial-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  for (const dir of [FILES_DIR, RETIRED_DIR, NOTES_DIR])
    mkdirSync(join(work, dir), { recursive: true, mode: 0o700 });
  try {
    const counts = await writeAll(engine, work, options);
    checkTarget(out);
    if (existsSync(out)) rmSync(out, { recursive: true });
    renameSync(work, out);
    options.onProgress?.({ phase: 'done', done: 1, total: 1 });
    return { folder: out, counts };
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
}

async function writeAll(
  engine: Engine,
  work: string,
  { onProgress, signal }: ExportOptions,
): Promise<ExportCounts> {
  const { db } = engine;
  const visible = visibleScopes(db, engine.user);
  const counts = emptyCounts();
  const kept = new Map<string, { label: string; scope: string }>();
  const names = { [FILES_DIR]: new NameBook(), [RETIRED_DIR]: new NameBook(), [NOTES_DIR]: new NameBook() };

  const items = new LineFile(join(work, FILES.items));
  // Agents' rows are records too (they travel as items between replicas, docs/AGENTS.md [G12]):
  // they count in the items phase.
  const itemTotal = total(db, 'items') + agentRowsTotal(db, engine.workspaceId, engine.user);
  let seen = 0;
  let after = 0;
  try {
    for (;;) {
      checkAborted(signal);
      const rows = db
        .prepare('SELECT * FROM items WHERE rowid > ? ORDER BY rowid LIMIT ?')
        .all(after, BATCH) as ItemRow[];
      if (rows.length === 0) break;
      for (const row of rows) {
        after = row.rowid;
        seen++;
        if (!canSee(visible, row.scope)) continue;
        const line = itemLine(row);
        kept.set(row.id, { label: row.label, scope: row.scope });
        if (row.storage_kind === 'file') {
          counts.files++;
          if (row.blob && engine.blobs.has(row.blob)) {
            const dir = row.retired_at ? RETIRED_DIR : FILES_DIR;
            const name = names[dir].claim(safeFileName(row.label));
            const bytes = engine.blobs.get(row.blob);
            const fd = openSync(join(work, dir, name), 'wx', 0o600);
            try {
              writeSync(fd, bytes);
            } finally {
              closeSync(fd);
            }
            counts.bytes += bytes.length;
            line.path = `${dir}/${name}`;
          }
        } else if (row.storage_kind === 'section') counts.sections++;
        else if (row.storage_kind === 'entity') counts.entities++;
        else {
          counts.notes++;
          if (!row.retired_at) {
            const name = names[NOTES_DIR].claim(safeFileName(`${row.label || row.id}.md`, 'note.md'));
            const fd = openSync(join(work, NOTES_DIR, name), 'wx', 0o600);
            try {
              writeSync(fd, `# ${row.label}\n\n${row.body}\n`);
            } finally {
              closeSync(fd);
            }
          }
        }
        items.write(line);
      }
      onProgress?.({ phase: 'items', done: seen, total: itemTotal });
      await yieldToLoop();
    }
  } finally {
    items.close();
  }

  const agentCounts = await writeAgentBrains(
    db,
    work,
    { workspaceId: engine.workspaceId, user: engine.user, visible },
    async (rows) => {
      checkAborted(signal);
      seen += rows;
      onProgress?.({ phase: 'items', done: Math.min(seen, itemTotal), total: itemTotal });
      await yieldToLoop();
    },
  );
  Object.assign(counts, agentCounts);

  const edges = new LineFile(join(work, FILES.edges));
  const facts = new LineFile(join(work, FILES.facts));
  const edgeTotal = total(db, 'edges');
  let edgeSeen = 0;
  let lastId = '';
  try {
    for (;;) {
      checkAborted(signal);
      const rows = db.prepare('SELECT * FROM edges WHERE id > ? ORDER BY id LIMIT ?').all(lastId, BATCH) as {
        id: string;
        type: string;
        from_id: string;
        to_id: string;
        props: string | null;
        origin_actor: string;
        origin_source: string;
        origin_run: string | null;
        origin_at: string;
        retired_at: string | null;
      }[];
      if (rows.length === 0) break;
      for (const edge of rows) {
        lastId = edge.id;
        edgeSeen++;
        // An edge is seen with both its ends ([V1] in docs/PRODUCT.md: scope is checked on every read).
        if (!kept.has(edge.from_id) || !kept.has(edge.to_id)) continue;
        edges.write(edgeLine(edge));
        counts.edges++;
        if (edge.type === 'FACT') {
          facts.write(factLine(edge, kept));
          counts.facts++;
        }
      }
      onProgress?.({ phase: 'edges', done: edgeSeen, total: edgeTotal });
      await yieldToLoop();
    }
  } finally {
    edges.close();
    facts.close();
  }

  const teams = new LineFile(join(work, FILES.teams));
  const memberTeams = db
    .prepare(
      'SELECT t.id, t.name FROM teams t JOIN team_members m ON m.team_id = t.id WHERE m.user_id = ? ORDER BY t.id',
    )
    .all(engine.user) as { id: string; name: string }[];
  for (const team of memberTeams) teams.write(team);
  teams.close();

  const manifest: Manifest = {
    format: FORMAT,
    version: FORMAT_VERSION,
    exportedAt: new Date().toISOString(),
    workspace: engine.workspaceId,
    member: engine.user,
    counts,
  };
  writeText(join(work, FILES.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
  writeText(join(work, FILES.readme), README_TEXT);
  return counts;
}

function writeText(path: string, text: string): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
