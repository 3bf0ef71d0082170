/**
 * A host that can restore a backup under itself ([N18] in docs/PACKAGING.md). Every part of a
 * BrainHost holds its engine's connection, so a restore cannot swap the database under it: the
 * slot checks the backup, lets the process let go of what it lent out (the embedding owner's
 * owner.json, the MCP endpoint), closes the host and its engine, restores, opens a new engine and
 * host on the restored file, hands them back, and tells the windows (`app.command` restored) so
 * they load again. Calls that arrive meanwhile wait for the new host; listeners stay subscribed.
 * Whatever the restore did, a host is open again afterwards.
 */
import type { EventName, Events } from '#shared/api/events.ts';
import { AppError } from '#shared/errors.ts';
import { checkRestorable, type RestoreReport, restoreBackup } from '../backup/restore.ts';
import type { Engine } from '../engine.ts';
import { BrainHost, type HostOptions, type Listener, Listeners, type Result } from './host.ts';

export type SlotHooks = {
  /** Before the host closes: let go of what other processes use (owner.json, the MCP route). */
  detach?: (host: BrainHost) => Promise<void> | void;
  /** After a host opened (the first and each one after a restore): serve them again. */
  attach?: (host: BrainHost) => Promise<void> | void;
};

export class HostSlot {
  private current!: BrainHost;
  private readonly listeners = new Listeners();
  private unlisten: () => void = () => undefined;
  /** While a restore runs: calls wait for it. */
  private swapping: Promise<void> | null = null;

  private constructor(
    private readonly openEngine: () => Engine,
    private readonly options: Omit<HostOptions, 'restore'>,
    private readonly hooks: SlotHooks,
  ) {}

  /** Opens the first engine and host. */
  static async start(
    openEngine: () => Engine,
    options: Omit<HostOptions, 'restore'>,
    hooks: SlotHooks = {},
  ): Promise<HostSlot> {
    const slot = new HostSlot(openEngine, options, hooks);
    await slot.openHost(openEngine());
    return slot;
  }

  get host(): BrainHost {
    return this.current;
  }

  get engine(): Engine {
    return this.current.engine;
  }

  private async openHost(engine: Engine): Promise<void> {
    this.current = await BrainHost.start(engine, { ...this.options, restore: (name) => this.restore(name) });
    this.unlisten = this.current.on((event, payload) => this.emit(event, payload));
    await this.hooks.attach?.(this.current);
  }

  on(listener: Listener): () => void {
    return this.listeners.on(listener);
  }

  private emit<E extends EventName>(event: E, payload: Events[E]): void {
    this.listeners.emit(event, payload);
  }

  async invoke(name: unknown, input: unknown): Promise<Result<unknown>> {
    await this.swapping;
    return this.current.invoke(name, input);
  }

  async upload(file: Parameters<BrainHost['upload']>[0]): ReturnType<BrainHost['upload']> {
    await this.swapping;
    return this.current.upload(file);
  }

  /** Restores `name` under this process; a wrong or damaged backup changes nothing and closes nothing. */
  async restore(name: string): Promise<RestoreReport> {
    if (this.swapping) throw new AppError('busy', 'A restore is already running: wait for it to finish.');
    const old = this.current;
    const home = old.engine.home;
    checkRestorable(home, name);
    let finish: () => void = () => undefined;
    this.swapping = new Promise<void>((r) => {
      finish = r;
    });
    try {
      await this.hooks.detach?.(old);
      this.unlisten();
      await old.close();
      await old.engine.close();
      try {
        return await restoreBackup(home, name);
      } finally {
        // Restored or not (another process had it open), the workspace is opened again.
        await this.openHost(this.openEngine());
        this.emit('app.command', { command: 'restored', name });
        this.emit('status.changed', this.current.status());
      }
    } finally {
      this.swapping = null;
      finish();
    }
  }

  async close(): Promise<void> {
    await this.swapping;
    await this.hooks.detach?.(this.current);
    this.unlisten();
    await this.current.close();
    await this.current.engine.close();
  }
}
