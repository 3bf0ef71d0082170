/**
 * Background sync for a long-lived host (the app): a round every ~10 s while connected, backing
 * off (doubling, up to 5 minutes, with jitter) while the server cannot be reached, and a callback
 * when what the status bar shows changes (online/offline, pending, last sync, error).
 */
import type { Engine } from '../engine.ts';
import { isConnected, type SyncReport, syncNow } from './index.ts';
import { syncStatus } from './state.ts';

export type SyncLoopOptions = {
  intervalMs?: number;
  maxBackoffMs?: number;
  onChange: () => void;
  /** After a round that brought something new (the host re-embeds and refreshes views). */
  onPulled?: (report: SyncReport) => void;
};

export class SyncLoop {
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private stopped = false;
  private round: Promise<void> | null = null;
  private lastShown = '';

  constructor(
    private readonly engine: Engine,
    private readonly options: SyncLoopOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(1000);
  }

  /** A round as soon as possible (after a local change, or when the user asks). */
  nudge(): void {
    if (this.stopped) return;
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.round = this.tick().finally(() => {
        this.round = null;
      });
    }, delayMs);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    const interval = this.options.intervalMs ?? 10_000;
    if (this.stopped) return;
    if (!isConnected(this.engine)) {
      this.schedule(interval);
      return;
    }
    try {
      const report = await syncNow(this.engine);
      this.failures = 0;
      if (report.applied > 0 || report.evicted > 0) this.options.onPulled?.(report);
    } catch {
      this.failures += 1;
    }
    this.notifyIfChanged();
    if (this.stopped) return;
    const backoff = Math.min(interval * 2 ** this.failures, this.options.maxBackoffMs ?? 300_000);
    const jitter = this.failures ? Math.random() * 0.2 * backoff : 0;
    this.schedule(this.failures ? backoff + jitter : interval);
  }

  private notifyIfChanged(): void {
    const s = syncStatus(this.engine.db);
    const shown = JSON.stringify([s.connected, s.state, s.pending, s.lastSync, s.lastError, s.cursor]);
    if (shown === this.lastShown) return;
    this.lastShown = shown;
    this.options.onChange();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.round?.catch(() => undefined);
  }
}
