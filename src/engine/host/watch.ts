/**
 * Watched folders: files that appear are added (and indexed when "index on add" is on), changed
 * files become a new version that is re-indexed (the old sections are retired, not deleted), and
 * removed files are retired. Watching survives restarts: at start every folder is caught up with
 * what changed while the app was closed.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import type { WatchedFolder } from '#shared/api/types.ts';
import { MAX_FILE_BYTES } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import { type AddResult, addBytes } from '../add/add.ts';
import { readHashed } from '../add/add-read.ts';
import type { Engine } from '../engine.ts';
import { ownedItemId } from '../ids.ts';
import { retireFile } from '../knowledge/retire.ts';
import { getRow } from '../read/items.ts';
import { assertCanWrite, parseScope } from '../scope.ts';

type FolderRow = { path: string; scope: string; user_id: string; added_at: string };

export type WatchHooks = {
  /** Files were added (new) or changed (new bytes of a file that was indexed before). */
  onFiles(change: { added: string[]; changed: string[]; removed: string[] }): void;
  onError(folder: string, message: string): void;
};

const keyPrefix = (folder: string) => `watch:${folder}|`;

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

export class FolderWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly errors = new Map<string, string>();
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly engine: Engine,
    private readonly hooks: WatchHooks,
  ) {}

  private rows(): FolderRow[] {
    return this.engine.db.prepare('SELECT * FROM watched_folders ORDER BY path').all() as FolderRow[];
  }

  /** Catch up every folder, then watch them. */
  async start(): Promise<void> {
    for (const row of this.rows()) await this.begin(row);
  }

  async add(path: string, scopeInput?: string): Promise<WatchedFolder> {
    const folder = resolve(path);
    if (!isAbsolute(path))
      throw new AppError('validation-failed', `Give an absolute folder path (got "${path}").`);
    if (!existsSync(folder) || !statSync(folder).isDirectory()) {
      throw new AppError('not-found', `${folder} is not a folder on this machine.`);
    }
    const scope = parseScope(scopeInput);
    assertCanWrite(this.engine.db, this.engine.user, scope);
    this.engine.db
      .prepare('INSERT OR IGNORE INTO watched_folders (path, scope, user_id, added_at) VALUES (?, ?, ?, ?)')
      .run(folder, scope, this.engine.user, new Date().toISOString());
    const row = this.rows().find((r) => r.path === folder) as FolderRow;
    await this.begin(row);
    return this.view(row);
  }

  async remove(path: string): Promise<boolean> {
    const folder = resolve(path);
    await this.watchers.get(folder)?.close();
    this.watchers.delete(folder);
    return this.engine.db.prepare('DELETE FROM watched_folders WHERE path = ?').run(folder).changes > 0;
  }

  list(): WatchedFolder[] {
    return this.rows().map((r) => this.view(r));
  }

  async close(): Promise<void> {
    await Promise.all([...this.watchers.values()].map((w) => w.close()));
    this.watchers.clear();
    await this.chain.catch(() => undefined);
  }

  private view(row: FolderRow): WatchedFolder {
    const files = (
      this.engine.db
        .prepare(
          "SELECT COUNT(*) AS n FROM items WHERE storage_kind = 'file' AND retired_at IS NULL AND substr(source_key, 1, ?) = ?",
        )
        .get(keyPrefix(row.path).length, keyPrefix(row.path)) as { n: number }
    ).n;
    const missing = !existsSync(row.path);
    const error = this.errors.get(row.path) ?? null;
    return {
      path: row.path,
      scope: row.scope,
      addedAt: row.added_at,
      status: missing ? 'missing' : error ? 'error' : 'watching',
      message: missing ? 'The folder is not there any more.' : error,
      files,
    };
  }

  private serial<T>(fn: () => T | Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async begin(row: FolderRow): Promise<void> {
    if (this.watchers.has(row.path) || !existsSync(row.path)) return;
    await this.serial(() => this.catchUp(row));
    const watcher = watch(row.path, {
      ignoreInitial: true,
      ignored: (p: string) => basename(p).startsWith('.') && p !== row.path,
      awaitWriteFinish: { stabilityThreshold: 300, pollInterval: 100 },
    });
    watcher.on('add', (p) => void this.serial(async () => this.report(await this.upsert(row, p))));
    watcher.on('change', (p) => void this.serial(async () => this.report(await this.upsert(row, p))));
    watcher.on('unlink', (p) => void this.serial(() => this.report(this.removed(row, p))));
    watcher.on('error', (err) => {
      this.errors.set(row.path, (err as Error).message);
      this.hooks.onError(row.path, (err as Error).message);
    });
    this.watchers.set(row.path, watcher);
    // Changes made after add() returns must be seen: wait until the watcher is listening.
    await new Promise<void>((ready) => watcher.once('ready', () => ready()));
  }

  private report(change: { added: string[]; changed: string[]; removed: string[] }): void {
    if (change.added.length || change.changed.length || change.removed.length) this.hooks.onFiles(change);
  }

  /** What changed while nobody watched: new and changed files are added, vanished ones retired. */
  private async catchUp(row: FolderRow): Promise<void> {
    const change = { added: [] as string[], changed: [] as string[], removed: [] as string[] };
    const seen = new Set<string>();
    for (const path of walk(row.path)) {
      const c = await this.upsert(row, path);
      change.added.push(...c.added);
      change.changed.push(...c.changed);
      for (const id of [...c.added, ...c.changed, ...c.unchanged]) seen.add(id);
    }
    const prefix = keyPrefix(row.path);
    const known = this.engine.db
      .prepare(
        "SELECT id FROM items WHERE storage_kind = 'file' AND retired_at IS NULL AND substr(source_key, 1, ?) = ?",
      )
      .all(prefix.length, prefix) as { id: string }[];
    for (const { id } of known) {
      if (!seen.has(id) && retireFile(this.engine.db, id)) change.removed.push(id);
    }
    this.report(change);
  }

  private async upsert(
    row: FolderRow,
    path: string,
  ): Promise<{ added: string[]; changed: string[]; removed: string[]; unchanged: string[] }> {
    const out = {
      added: [] as string[],
      changed: [] as string[],
      removed: [] as string[],
      unchanged: [] as string[],
    };
    const rel = relative(row.path, path).split(sep).join('/');
    const sourceKey = `${keyPrefix(row.path)}${rel}`;
    const id = ownedItemId(this.engine.workspaceId, 'file', this.engine.user, sourceKey);
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(path);
    } catch {
      return out; // gone again before we looked
    }
    const before = getRow(this.engine.db, id);
    if (
      before &&
      before.retired_at === null &&
      before.size === st.size &&
      before.occurred_at === st.mtime.toISOString()
    ) {
      out.unchanged.push(id);
      return out;
    }
    // Too large or unsupported files in a watched folder are simply not added (nothing to answer from).
    if (st.size > MAX_FILE_BYTES) return out;
    const result: AddResult = { added: [], unchanged: [], refused: [] };
    const read = await readHashed(path, st.size);
    await addBytes(
      {
        db: this.engine.db,
        blobs: this.engine.blobs,
        workspaceId: this.engine.workspaceId,
        user: this.engine.user,
      },
      {
        bytes: read.bytes,
        sha256: read.sha256,
        name: basename(path),
        path,
        sourceKey,
        mtime: st.mtime,
        scope: row.scope,
        originSource: 'watch',
      },
      result,
    );
    if (result.added.length === 0) {
      if (result.unchanged.length) out.unchanged.push(id);
      return out;
    }
    if (before && before.retired_at === null && before.indexed === 1) out.changed.push(id);
    else out.added.push(id);
    return out;
  }

  private removed(row: FolderRow, path: string) {
    const rel = relative(row.path, path).split(sep).join('/');
    const id = ownedItemId(this.engine.workspaceId, 'file', this.engine.user, `${keyPrefix(row.path)}${rel}`);
    return { added: [], changed: [], removed: retireFile(this.engine.db, id) ? [id] : [] };
  }
}
