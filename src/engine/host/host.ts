/**
 * The BrainApi implemented over one engine, for every transport (Electron IPC, the browser host):
 * inputs are validated against the contract, every failure becomes a readable typed error, and
 * changes are pushed as events.
 */
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import {
  CONTRACT,
  type CommandName,
  isCommandName,
  type OPERATIONS,
  type Outputs,
  type ParsedInputs,
} from '#shared/api/contract.ts';
import type { EventName, Events } from '#shared/api/events.ts';
import type { AddReport, StatusView } from '#shared/api/types.ts';
import { AppError, type TransferableError, toTransferable } from '#shared/errors.ts';
import { type AddProgress, type AddResult, addBytes } from '../add/add.ts';
import { type AppNotice, inboxNotices } from '../commands/inbox.ts';
import { operationNamed, runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import { downloadModel } from '../embed/index.ts';
import type { Engine } from '../engine.ts';
import { IndexRunner } from '../indexing/index-runner.ts';
import { assertCanWrite, parseScope } from '../scope.ts';
import { inject } from '../search/injection.ts';
import { warmVectors } from '../search/vector-client.ts';
import type { SyncReport } from '../sync/index.ts';
import { SyncLoop } from '../sync/loop.ts';
import { findRepoRoot } from '../util/repo-root.ts';
import { deleteThread, getThread, listThreads, sendMessage } from './chat.ts';
import { listFiles } from './files-view.ts';
import { readSettings } from './settings.ts';
import { type OperationEffects, teamEffects } from './team-effects.ts';
import { FolderWatcher } from './watch.ts';
import { BrainWork } from './writeback-host.ts';

/** Notices an operation's answer gives the windows (none when it failed: nothing changed). */
function noticesOf(
  notices: Record<string, (answer: never) => AppNotice[]>,
  emit: (notice: AppNotice) => void,
): OperationEffects {
  const out: OperationEffects = {};
  for (const [name, of] of Object.entries(notices)) {
    out[name] = (answer) => {
      if (answer !== undefined) for (const n of of(answer as never)) emit(n);
    };
  }
  return out;
}

export type Result<T> = { ok: true; data: T } | { ok: false; error: TransferableError };
export type Listener = <E extends EventName>(event: E, payload: Events[E]) => void;

/** The sample workspace: beside app.asar when packaged, else resources/sample in the repository. */
const SAMPLE_DIR =
  [(process as { resourcesPath?: string }).resourcesPath, join(findRepoRoot() ?? '.', 'resources')]
    .filter((dir): dir is string => Boolean(dir))
    .map((dir) => join(dir, 'sample'))
    .find((dir) => existsSync(dir)) ?? 'resources/sample';

/** The app's own commands; operations of the contract run through the engine's commands. */
type AppCommand = Exclude<CommandName, (typeof OPERATIONS)[number]['name']>;
/** How often a long drop says how far it got (`add.progress`): a few times a second is enough for a bar. */
const ADD_PROGRESS_EVERY_MS = 250;

type Handlers = { [N in AppCommand]: (input: ParsedInputs[N]) => Promise<Outputs[N]> | Outputs[N] };

export class BrainHost {
  readonly engine: Engine;
  private readonly listeners = new Set<Listener>();
  private readonly runner: IndexRunner;
  private readonly watcher: FolderWatcher;
  private readonly sync: SyncLoop;
  private readonly handlers: Handlers;
  private readonly work: BrainWork;
  private readonly effects: OperationEffects;

  private constructor(engine: Engine, options: { version: string; sampleDir?: string }) {
    this.engine = engine;
    this.runner = new IndexRunner(
      engine,
      (p) => {
        this.emit('index.progress', p);
        if (p.phase === 'indexed' || p.phase === 'failed') this.emit('files.changed', { ids: [p.fileId] });
        if (p.phase === 'indexed') this.work.audit(p.fileId);
      },
      () => this.emit('status.changed', this.status()),
    );
    this.watcher = new FolderWatcher(engine, {
      onFiles: (change) => {
        this.emit('files.changed', { ids: [...change.added, ...change.changed, ...change.removed] });
        const toIndex = [...change.changed, ...(this.settings().indexOnAdd ? change.added : [])];
        if (toIndex.length) this.runner.request(toIndex);
      },
      onError: () => this.emit('status.changed', this.status()),
    });
    this.sync = new SyncLoop(engine, {
      onChange: () => this.emit('status.changed', this.status()),
      onPulled: (report) => {
        this.runner.resume();
        this.inboxIfPulled(report);
      },
    });
    this.work = new BrainWork(engine, (event, payload) => this.emit(event, payload));
    this.handlers = this.buildHandlers(options.version, options.sampleDir ?? SAMPLE_DIR);
    this.effects = {
      ...teamEffects({
        statusChanged: () => this.emit('status.changed', this.status()),
        filesChanged: () => this.emit('files.changed', { ids: [] }),
        inboxChanged: () => this.emit('inbox.changed', { at: new Date().toISOString() }),
        kick: () => this.work.kick(),
      }),
      ...noticesOf(inboxNotices, (n) => this.emit(n.event, n.payload as never)),
    };
  }

  /** Opens the host: catches up watched folders and resumes indexing left by an earlier run. */
  static async start(engine: Engine, options: { version: string; sampleDir?: string }): Promise<BrainHost> {
    const host = new BrainHost(engine, options);
    await host.watcher.start().catch((err: Error) => console.error(`[watch] ${err.message}`));
    host.runner.resume();
    host.work.start();
    host.sync.start();
    warmVectors(engine.db); // the vector mirror loads now, not inside the first search
    return host;
  }

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit<E extends EventName>(event: E, payload: Events[E]): void {
    for (const l of this.listeners) {
      try {
        l(event, payload);
      } catch {
        // a broken listener (a closed connection) never stops the others
      }
    }
  }

  async invoke(name: unknown, input: unknown): Promise<Result<unknown>> {
    try {
      if (!isCommandName(name))
        throw new AppError('not-found', `Unknown command ${String(name).slice(0, 80)}.`);
      if (operationNamed(name)) return { ok: true, data: await this.operation(name, input) };
      const parsed = CONTRACT[name].input.safeParse(input ?? undefined);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppError(
          'validation-failed',
          `${name}: ${issue?.path.join('.') || 'input'} ${issue?.message ?? 'is invalid'}.`,
        );
      }
      const handler = this.handlers[name as AppCommand] as (i: unknown) => unknown;
      return { ok: true, data: await handler(parsed.data) };
    } catch (err) {
      if (!(err instanceof AppError)) console.error(`[api] ${String(name)} failed:`, err);
      return { ok: false, error: toTransferable(err) };
    }
  }

  /**
   * An operation of the contract, run by the engine's command as on every surface; then what this
   * host's windows are told about it (src/engine/host/team-effects.ts, inboxNotices), whether it
   * succeeded or not (a failed round still changed the status bar).
   */
  private async operation(name: string, input: unknown): Promise<unknown> {
    let answer: unknown;
    try {
      answer = await runCommand(memberContext(this.engine, 'app'), name, input);
      return answer;
    } finally {
      this.effects[name]?.(answer);
    }
  }

  /** The browser host's uploads: bytes with a name and the path they had in the drop. */
  async upload(file: { name: string; path: string; bytes: Uint8Array; scope?: string }): Promise<AddReport> {
    const scope = parseScope(file.scope);
    assertCanWrite(this.engine.db, this.engine.user, scope);
    const result: AddResult = { added: [], unchanged: [], refused: [], scopeKept: [] };
    const path = file.path.replace(/^\/+/, '') || file.name;
    await addBytes(
      {
        db: this.engine.db,
        blobs: this.engine.blobs,
        workspaceId: this.engine.workspaceId,
        user: this.engine.user,
      },
      {
        bytes: file.bytes,
        name: file.name,
        path,
        sourceKey: `upload:${this.engine.user}:${path}`,
        mtime: new Date(),
        scope,
        scopeAsked: file.scope !== undefined,
      },
      result,
    );
    this.afterAdd(result);
    return result;
  }

  /** `add.progress` while a drop is added, at most every ADD_PROGRESS_EVERY_MS, and once when it is done. */
  private addProgress(): (p: AddProgress) => void {
    let last = 0;
    return (p) => {
      const now = Date.now();
      if (p.done < p.total && now - last < ADD_PROGRESS_EVERY_MS) return;
      last = now;
      this.emit('add.progress', p);
    };
  }

  private afterAdd(result: AddResult): void {
    const ids = result.added.map((a) => a.id);
    if (ids.length) this.emit('files.changed', { ids });
    if (ids.length && this.settings().indexOnAdd) this.runner.request(ids);
    this.emit('status.changed', this.status());
  }

  private settings() {
    return readSettings(this.engine.db, { dataFolder: this.engine.home, user: this.engine.user });
  }

  status(): StatusView {
    const s = this.engine.status();
    return {
      user: s.user,
      home: s.home,
      scopes: s.scopes,
      counts: s.counts,
      queue: s.queue,
      model: s.model,
      chatModel: this.work.chatModelStatus(),
      sync: s.sync, // what getSyncStatus(engine) gives; engine.status() has just read it
    };
  }

  private buildHandlers(version: string, sampleDir: string): Handlers {
    const e = this.engine;
    return {
      'app.info': () => ({
        name: 'Org Brain',
        version,
        user: e.user,
        home: e.home,
        workspace: e.workspaceId,
      }),
      'status.get': () => this.status(),
      'files.list': (input) => listFiles(e, input),
      'files.add': async (input) => {
        const result = await e.add(input.paths, { scope: input.scope, onProgress: this.addProgress() });
        this.afterAdd(result);
        return result;
      },
      'files.index': (input) => ({ queued: this.runner.request(input.ids) }),
      'chat.threads': () => listThreads(e.db, e.user),
      'chat.thread': (input) => getThread(e.db, e.user, input.id),
      'chat.send': async (input) => {
        const result = await sendMessage(
          e.db,
          e.user,
          input,
          async (message, anchors) => {
            const r = await inject(e, { message, anchors: [...anchors], surface: 'chat' });
            return { items: r.items, reason: r.reason };
          },
          await this.work.chatModel(),
        );
        this.emit('chat.changed', { threadId: result.thread.id });
        this.emit('activity.changed', { at: new Date().toISOString() });
        return result;
      },
      'chat.delete': (input) => ({ deleted: deleteThread(e.db, e.user, input.id) }),
      'watch.list': () => this.watcher.list(),
      'watch.add': (input) => this.watcher.add(input.path, input.scope),
      'watch.remove': async (input) => ({ removed: await this.watcher.remove(input.path) }),
      'sample.load': async () => {
        const result = await e.add([realpathSync(sampleDir)]);
        this.afterAdd(result);
        this.runner.request(result.added.map((a) => a.id));
        return result;
      },
      'model.download': () => {
        void downloadModel({ home: e.home })
          .then(() => this.runner.resume())
          .catch(() => undefined)
          .finally(() => this.emit('status.changed', this.status()));
        this.emit('status.changed', this.status());
        return { started: true };
      },
      ...this.work.handlers(),
    };
  }

  /** Proposals pulled, decided elsewhere or evicted: the inbox and the rail's count refresh. */
  private inboxIfPulled(report: SyncReport): void {
    if (report.proposals > 0) this.emit('inbox.changed', { at: new Date().toISOString() });
  }

  async close(): Promise<void> {
    await this.work.close();
    await this.sync.stop();
    await this.watcher.close();
    await this.runner.close();
    this.listeners.clear();
  }
}
