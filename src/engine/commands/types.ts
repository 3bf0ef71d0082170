/**
 * What an engine command runs with: the engine (acting as one member, with their scopes), the
 * surface that called (its limits apply: src/shared/api/operation.ts) and who writes, for origin:
 * the member themselves, or an agent acting for them in a run.
 */
import type { EventName, Events } from '#shared/api/events.ts';
import type { Surface } from '#shared/api/operation.ts';
import type { WatchedFolder } from '#shared/api/types.ts';
import type { RunMount } from '../agents/mount.ts';
import type { RestoreReport } from '../backup/restore.ts';
import type { Engine } from '../engine.ts';

type WriteOrigin = { actor: string; source: string; run: string | null };

export type CommandContext = {
  engine: Engine;
  surface: Surface;
  /** Who the writes of this call are by (origin of items and edges, [S26] in docs/SYNC_SPEC.md). */
  origin: WriteOrigin;
  /**
   * On the agent surface, the agent and its run (src/hosts/mcp/context.ts): runs.end defaults to that
   * run. `mount`: what the MCP server served this run of its brain (docs/AGENTS.md [G7]).
   */
  agent?: { name: string; run: string; startedAt: string; mount?: RunMount };
  /**
   * What a host that stays up (the app's engine, `brain serve`) lends the commands it runs: its
   * background indexing, its watched folders, its name. A one-shot process has none, so its
   * commands do the work before they answer (docs/ARCHITECTURE.md).
   */
  host?: HostServices;
  /** Progress of long work as events: a host forwards them to its windows, the command line draws them. */
  notify?: Notify;
  /** Stops long work early (Ctrl+C on the command line): claims are given back, not left to expire. */
  signal?: AbortSignal;
};

export type Notify = <E extends EventName>(event: E, payload: Events[E]) => void;

export type HostServices = {
  /** The app's version (app.info). */
  version: string;
  /** Where the sample workspace is, when the host was told (tests); else it is found. */
  sampleDir?: string;
  /** Queues files for the background runner (none: every file not indexed); how many were queued. */
  queueIndex(ids?: readonly string[]): number;
  watcher: {
    list(): WatchedFolder[];
    add(path: string, scope?: string): Promise<WatchedFolder>;
    remove(path: string): Promise<boolean>;
  };
  /**
   * Starts an embedding model's download in the background (the status says how far it got);
   * `then` runs once it is here.
   */
  downloadModel(modelId: string, then?: () => void): void;
  /** Embeds in the background what has no vector of the workspace's model (after a switch). */
  embedAgain(): void;
  /** Looks at the connected and received trees now, building those due (docs/TREES.md [T13]). */
  kickTrees(): void;
  /**
   * Puts a backup in place of the database under this host, closing and reopening its engine
   * around it (docs/PACKAGING.md [N18]); absent where the host cannot reopen itself.
   */
  restore?(name: string): Promise<RestoreReport>;
};

/** A member acting on the app or the command line writes as themselves. */
export function memberContext(
  engine: Engine,
  surface: Surface,
  extra: Pick<CommandContext, 'host' | 'notify' | 'signal'> = {},
): CommandContext {
  return { engine, surface, origin: { actor: engine.user, source: surface, run: null }, ...extra };
}
