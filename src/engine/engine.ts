/**
 * The engine facade every surface uses (CLI, app, browser host, MCP): one workspace folder, one
 * acting user, their scopes checked on every read.
 */
import { SEARCH_K_MAX_AGENT } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import type { SearchResult } from '#shared/types.ts';
import { assertMayActAs, recordActingAs } from './acting-as.ts';
import { type AddProgress, type AddResult, addPaths } from './add/add.ts';
import { type BlobStore, createBlobStore } from './add/blobs.ts';
import { type MovePlan, type MoveResult, moveItem, planMove } from './add/move.ts';
import { type Db, openDb } from './db/driver.ts';
import { chosenModelId } from './embed/choice.ts';
import { createEmbedder, type Embedder, type ModelState } from './embed/index.ts';
import { type IndexProgress, type IndexReport, runIndex } from './indexing/index-queue.ts';
import type { IndexOutcome } from './indexing/indexer.ts';
import { unlockFile } from './indexing/unlock.ts';
import { closeIngestWorkers } from './ingest/index.ts';
import { releaseLeases } from './jobs/jobs-lease.ts';
import { type LineRange, type ReadResult, readItem, visibleRow } from './read/read.ts';
import { assertCanWrite, parseScope, visibleScopes } from './scope.ts';
import { type SearchMode, search } from './search/search.ts';
import { closeVectorWorker } from './search/vector-client.ts';
import { type StatusCounts, statusCounts } from './status-counts.ts';
import { connectedUser, type SyncStatus, syncStatus } from './sync/state.ts';
import { flushTelemetry, logEvent, type Surface } from './telemetry.ts';
import {
  addMember,
  ensureHome,
  ensureUserOnOpen,
  localUserName,
  resolveHome,
  userExists,
  workspaceId,
} from './workspace.ts';

export type EngineOptions = {
  home?: string;
  /**
   * The member to act as (`--as`). Another member than the replica's own (the connected member,
   * else the local user) is for the local admin only and is recorded ([R3] in docs/RETRIEVAL.md).
   */
  user?: string;
  /** What acts, for that record: the CLI command (`search`, `members add`); default the surface. */
  command?: string;
  modelDir?: string;
  surface?: Surface;
  /** An embedder made elsewhere (a thin client to the owner process); the engine closes it on close. */
  embedder?: Embedder;
};

export type Status = StatusCounts & {
  user: string;
  workspace: string;
  home: string;
  scopes: string[];
  model: ModelState;
  sync: SyncStatus;
};

export class Engine {
  readonly home: string;
  readonly db: Db;
  readonly blobs: BlobStore;
  /** Both change when the replica joins a workspace server (src/engine/sync). */
  workspaceId: string;
  user: string;
  readonly embedder: Embedder;
  readonly surface: Surface;

  private constructor(options: EngineOptions) {
    this.home = resolveHome(options.home);
    const { dbPath, blobDir } = ensureHome(this.home);
    this.db = openDb(dbPath);
    this.blobs = createBlobStore(blobDir);
    this.workspaceId = workspaceId(this.db);
    this.surface = options.surface ?? 'cli';
    const local = localUserName();
    // Opening writes nothing unless something is missing: reads work beside a writer ([B1]).
    ensureUserOnOpen(this.db, local);
    try {
      this.user = this.actingMember(options, connectedUser(this.db) ?? local);
    } catch (err) {
      this.db.close();
      throw err;
    }
    const db = this.db;
    this.embedder =
      options.embedder ??
      createEmbedder({ home: this.home, modelDir: options.modelDir, modelId: () => chosenModelId(db) });
  }

  /** `options.user`, or the replica's own member; anyone else only for the local admin ([R3]). */
  private actingMember(options: EngineOptions, own: string): string {
    const user = options.user ?? own;
    // Refused before the member is looked up: a refusal says nothing about who exists.
    if (user !== own) assertMayActAs(this.db, this.home, own, user);
    if (!userExists(this.db, user)) {
      throw new AppError(
        'not-found',
        `No member "${user}" in this workspace; add one with \`brain members add ${user}\`.`,
      );
    }
    if (user !== own) {
      const command = options.command ?? (this.surface === 'agent' ? 'mcp' : this.surface);
      recordActingAs(this.db, this.surface, { as: user, by: own, command });
    }
    return user;
  }

  static open(options: EngineOptions = {}): Engine {
    return new Engine(options);
  }

  scopes(): string[] {
    return visibleScopes(this.db, this.user);
  }

  /** Adds files and folders; awaited file by file, so a host keeps answering during a big drop. */
  async add(
    paths: readonly string[],
    options: { scope?: string; externalId?: string; onProgress?: (progress: AddProgress) => void } = {},
  ): Promise<AddResult> {
    const scope = parseScope(options.scope);
    assertCanWrite(this.db, this.user, scope);
    if (paths.length === 0)
      throw new AppError('validation-failed', 'Name at least one file or folder to add.');
    const result = await addPaths(
      { db: this.db, blobs: this.blobs, workspaceId: this.workspaceId, user: this.user },
      paths,
      {
        scope,
        scopeAsked: options.scope !== undefined,
        externalId: options.externalId,
        onProgress: options.onProgress,
      },
    );
    logEvent(this.db, this.surface, this.user, 'add', {
      added: result.added.length,
      unchanged: result.unchanged.length,
      refused: result.refused.length,
    });
    return result;
  }

  /** What moving a file (and its sections) or a note to `scope` would do; refuses as `move` would. */
  planMove(id: string, scope: string): MovePlan {
    return planMove(this.db, this.user, id, scope);
  }

  /** Moves a file (and its sections) or a note to another scope (src/engine/add/move.ts). */
  move(id: string, scope: string): MoveResult {
    const result = moveItem(this.db, this.user, id, scope);
    logEvent(this.db, this.surface, this.user, 'move', {
      id: result.id,
      from: result.from,
      to: result.to,
      items: result.items,
    });
    return result;
  }

  index(ids: readonly string[] = [], onProgress?: (p: IndexProgress) => void): Promise<IndexReport> {
    return runIndex(
      {
        db: this.db,
        blobs: this.blobs,
        workspaceId: this.workspaceId,
        embedder: this.embedder,
        scopes: this.scopes(),
      },
      ids,
      onProgress,
    );
  }

  /**
   * Indexes one password-protected file with its password, used for this extraction only and
   * never stored (docs/FORMATS.md [F12], docs/SECURITY.md [U1]).
   */
  unlock(id: string, password: string): Promise<IndexOutcome> {
    const row = visibleRow(this.db, id, this.scopes());
    if (row.storage_kind !== 'file' || row.retired_at !== null)
      throw new AppError('validation-failed', `${id} is not a file (${row.storage_kind}): unlock its file.`);
    const ctx = { db: this.db, blobs: this.blobs, workspaceId: this.workspaceId, embedder: this.embedder };
    return unlockFile(ctx, row, password);
  }

  async search(
    query: string,
    options: { k?: number; maxK?: number; mode?: SearchMode } = {},
  ): Promise<SearchResult> {
    const started = performance.now();
    const queryVector = options.mode === 'keyword' ? null : await this.queryVector(query);
    const scopes = this.scopes();
    const result = search(this.db, query, {
      scopes,
      k: options.k,
      maxK: options.maxK ?? SEARCH_K_MAX_AGENT,
      queryVector,
      mode: options.mode,
    });
    logEvent(this.db, this.surface, this.user, 'search', {
      query,
      semantic: result.semantic,
      ms: Math.round(performance.now() - started),
      hits: result.hits.map((h) => ({ id: h.id, score: h.score })),
    });
    return result;
  }

  private async queryVector(query: string): Promise<{ vector: Float32Array; model: string } | null> {
    if (this.embedder.state().status !== 'on' || !query.trim()) return null;
    try {
      const vector = await this.embedder.embedQuery(query);
      const model = this.embedder.modelId();
      return model ? { vector, model } : null;
    } catch {
      return null; // the model failing turns semantic search off for this query; keywords still answer
    }
  }

  read(id: string, lines?: LineRange): Promise<ReadResult> {
    return readItem(this.db, this.blobs, id, this.scopes(), lines);
  }

  addMember(userId: string, teams: readonly string[]): { user: string; teams: string[] } {
    return addMember(this.db, userId, teams);
  }

  status(): Status {
    const scopes = this.scopes();
    const { counts, queue } = statusCounts(this.db, scopes);
    return {
      user: this.user,
      workspace: this.workspaceId,
      home: this.home,
      scopes,
      counts,
      queue,
      model: this.embedder.state(),
      sync: syncStatus(this.db),
    };
  }

  private closing: Promise<void> | null = null;

  /** Closes once: a host that restored a backup closed its engine already, and its process closes it again. */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    releaseLeases(this.db); // passes still in flight give their claims back ([J3] in docs/WORKSPACE.md)
    await this.embedder.close();
    await closeIngestWorkers();
    await closeVectorWorker(this.db);
    flushTelemetry(this.db); // rows a busy write lock held back get one more short try
    this.db.close();
  }
}
