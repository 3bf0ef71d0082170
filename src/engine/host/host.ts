/**
 * The BrainApi over one engine, for the app's transports (Electron IPC, the browser host): every
 * operation runs through the engine's command, as on every surface, with what this host lends it
 * (its background indexing, watched folders, version: HostServices); every failure becomes a
 * readable typed error, and changes are pushed to the windows as events.
 */
import type { EventName, Events } from '#shared/api/events.ts';
import type { AddReport, StatusView } from '#shared/api/types.ts';
import { AppError, type TransferableError, toTransferable } from '#shared/errors.ts';
import { type AddProgress, type AddResult, addBytes } from '../add/add.ts';
import type { RestoreReport } from '../backup/restore.ts';
import { BackupSchedule } from '../backup/schedule.ts';
import { type AppNotice, inboxNotices } from '../commands/inbox.ts';
import { runCommand } from '../commands/index.ts';
import { type CommandContext, type HostServices, memberContext, type Notify } from '../commands/types.ts';
import { statusView } from '../commands/workspace.ts';
import { downloadModel, modelHub } from '../embed/index.ts';
import type { Engine } from '../engine.ts';
import { IndexRunner } from '../indexing/index-runner.ts';
import { assertCanWrite, parseScope } from '../scope.ts';
import { warmVectors } from '../search/vector-client.ts';
import type { SyncReport } from '../sync/index.ts';
import { SyncLoop } from '../sync/loop.ts';
import { AgentBrainWork } from './agents-host.ts';
import { OthersWrites } from './others-writes.ts';
import { readSettings } from './settings.ts';
import { type OperationEffects, teamEffects } from './team-effects.ts';
import { TreeWatch } from './tree-watch.ts';
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

/** `add.progress` while a drop is added, at most every `everyMs`, and always when it is done. */
function throttled(everyMs: number) {
  let last = 0;
  return (p: AddProgress, emit: (p: AddProgress) => void) => {
    const now = Date.now();
    if (p.done < p.total && now - last < everyMs) return;
    last = now;
    emit(p);
  };
}

export type HostOptions = {
  version: string;
  sampleDir?: string;
  /** A host kept in a HostSlot can restore a backup in place (src/engine/host/slot.ts). */
  restore?: (name: string) => Promise<RestoreReport>;
};

/**
 * The windows listening to a host: a broken listener (a closed connection) never stops the
 * others. BrainHost and HostSlot (slot.ts) each keep one.
 */
export class Listeners {
  private readonly set = new Set<Listener>();

  on(listener: Listener): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  emit<E extends EventName>(event: E, payload: Events[E]): void {
    for (const l of this.set) {
      try {
        l(event, payload);
      } catch {
        // a broken listener never stops the others
      }
    }
  }

  clear(): void {
    this.set.clear();
  }
}

export type Result<T> = { ok: true; data: T } | { ok: false; error: TransferableError };
export type Listener = <E extends EventName>(event: E, payload: Events[E]) => void;

/** How often a long drop says how far it got (`add.progress`): a few times a second is enough for a bar. */
const ADD_PROGRESS_EVERY_MS = 250;

export class BrainHost {
  readonly engine: Engine;
  private readonly listeners = new Listeners();
  private readonly runner: IndexRunner;
  private readonly watcher: FolderWatcher;
  private readonly sync: SyncLoop;
  private readonly trees: TreeWatch;
  private readonly services: HostServices;
  private readonly work: BrainWork;
  private readonly agents: AgentBrainWork;
  private readonly backups: BackupSchedule;
  private readonly effects: OperationEffects;
  private readonly addProgress = throttled(ADD_PROGRESS_EVERY_MS);
  private readonly others: OthersWrites;

  private constructor(engine: Engine, options: HostOptions) {
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
        this.trees.kick(); // a received tree may be due a build (docs/TREES.md [T13])
      },
    });
    this.work = new BrainWork(engine, (event, payload) => this.emit(event, payload));
    this.backups = new BackupSchedule(engine.db, engine.home);
    this.agents = new AgentBrainWork(engine, (event, payload) => this.emit(event, payload));
    this.trees = new TreeWatch(engine, (tree, added) => {
      if (added.length) this.runner.request(added);
      this.emit('trees.changed', { tree });
      this.emit('files.changed', { ids: added });
    });
    // Another process wrote (the command line, an agent): lists, counts and the inbox refresh.
    this.others = new OthersWrites(engine.db, () => {
      this.emit('files.changed', { ids: [] });
      this.emit('status.changed', this.status());
      this.emit('inbox.changed', { at: new Date().toISOString() });
    });
    this.services = {
      version: options.version,
      sampleDir: options.sampleDir,
      queueIndex: (ids) => this.runner.request(ids),
      watcher: this.watcher,
      downloadModel: (modelId, then) => this.downloadModel(modelId, then),
      embedAgain: () => {
        this.runner.resume();
        this.emit('status.changed', this.status());
      },
      kickTrees: () => this.trees.kick(),
      restore: options.restore,
    };
    this.effects = {
      ...teamEffects({
        statusChanged: () => this.emit('status.changed', this.status()),
        filesChanged: () => this.emit('files.changed', { ids: [] }),
        inboxChanged: () => this.emit('inbox.changed', { at: new Date().toISOString() }),
        kick: () => this.work.kick(),
      }),
      ...noticesOf(inboxNotices, (n) => this.emit(n.event, n.payload as never)),
      ...this.ownEffects(),
    };
  }

  /** What the windows are told after the workspace's own operations (a drop, a chat turn, a move). */
  private ownEffects(): OperationEffects {
    const changed = (ids: string[]) => {
      if (ids.length) this.emit('files.changed', { ids });
      this.emit('status.changed', this.status());
    };
    // A tree built, rebuilt or gone: tree views refresh, and the file list (its documents are files).
    const treeChanged = (tree: string | undefined) => {
      if (!tree) return;
      this.emit('trees.changed', { tree });
      this.emit('files.changed', { ids: [] });
    };
    return {
      'files.add': (answer) => {
        if (answer) this.afterAdd(answer as AddResult);
      },
      'sample.load': (answer) => {
        if (answer) changed((answer as AddResult).added.map((a) => a.id));
      },
      'items.move': (answer) => {
        if (answer) changed([(answer as { id: string }).id]);
      },
      // Only the answer reaches here, never the input with its password (docs/SECURITY.md [U1]).
      'files.unlock': (answer) => {
        if (answer) changed([(answer as { id: string }).id]);
      },
      // A removed file leaves the grid and the dossier showing it refreshes (docs/FACTS.md [K8]).
      'items.remove': (answer) => {
        const removed = answer as { id: string; removed: boolean } | undefined;
        if (removed?.removed) changed([removed.id]);
      },
      'chat.send': (answer) => {
        if (!answer) return;
        this.emit('chat.changed', { threadId: (answer as { thread: { id: string } }).thread.id });
        this.emit('activity.changed', { at: new Date().toISOString() });
      },
      'chat.remember': (answer) => {
        if (answer) this.work.kick();
      },
      'trees.connect': (answer) => treeChanged((answer as { id: string } | undefined)?.id),
      'trees.rebuild': (answer) => treeChanged((answer as { id: string } | undefined)?.id),
      'trees.disconnect': (answer) =>
        treeChanged((answer as { disconnected: string } | undefined)?.disconnected),
    };
  }

  private downloadModel(modelId: string, then?: () => void): void {
    let step = -1;
    // The status carries the download's progress: told to the windows every 2 %.
    const onProgress = (fraction: number) => {
      const now = Math.floor(fraction * 50);
      if (now === step) return;
      step = now;
      this.emit('status.changed', this.status());
    };
    void downloadModel({ home: this.engine.home, modelId, remoteHost: modelHub(), onProgress })
      .then(() => {
        then?.();
        this.runner.resume();
      })
      .catch(() => undefined)
      .finally(() => this.emit('status.changed', this.status()));
    this.emit('status.changed', this.status());
  }

  /** How this host runs a command: as the local member, with its services and its windows to tell. */
  private context(): CommandContext {
    const notify: Notify = (event, payload) => {
      if (event === 'add.progress')
        this.addProgress(payload as AddProgress, (p) => this.emit('add.progress', p));
      else this.emit(event, payload);
    };
    return memberContext(this.engine, 'app', { host: this.services, notify });
  }

  /** Opens the host: catches up watched folders and resumes indexing left by an earlier run. */
  static async start(engine: Engine, options: HostOptions): Promise<BrainHost> {
    const host = new BrainHost(engine, options);
    await host.watcher.start().catch((err: Error) => console.error(`[watch] ${err.message}`));
    host.runner.resume();
    host.work.start();
    host.agents.start(); // due syntheses and the daily prune (docs/AGENTS.md [G3], [G5])
    host.sync.start();
    host.trees.start();
    host.backups.start(); // the daily backup (docs/PACKAGING.md [N15])
    host.others.start();
    warmVectors(engine.db); // the vector mirror loads now, not inside the first search
    return host;
  }

  on(listener: Listener): () => void {
    return this.listeners.on(listener);
  }

  private emit<E extends EventName>(event: E, payload: Events[E]): void {
    this.listeners.emit(event, payload);
  }

  async invoke(name: unknown, input: unknown): Promise<Result<unknown>> {
    try {
      if (typeof name !== 'string') throw new AppError('not-found', 'Unknown operation.');
      return { ok: true, data: await this.operation(name, input) };
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
      answer = await runCommand(this.context(), name, input);
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

  private afterAdd(result: AddResult): void {
    const ids = result.added.map((a) => a.id);
    if (ids.length) this.emit('files.changed', { ids });
    if (ids.length && this.settings().indexOnAdd) this.runner.request(ids);
    this.emit('status.changed', this.status());
  }

  private settings() {
    return readSettings(this.engine.db, { dataFolder: this.engine.home, user: this.engine.user });
  }

  /** What status.get answers, for the `status.changed` event. */
  status(): StatusView {
    return statusView(this.engine);
  }

  /** Proposals pulled, decided elsewhere or evicted: the inbox and the rail's count refresh. */
  private inboxIfPulled(report: SyncReport): void {
    if (report.proposals > 0) this.emit('inbox.changed', { at: new Date().toISOString() });
  }

  async close(): Promise<void> {
    this.others.close();
    await this.backups.close();
    await this.work.close();
    await this.agents.close();
    await this.trees.close();
    await this.sync.stop();
    await this.watcher.close();
    await this.runner.close();
    this.listeners.clear();
  }
}
