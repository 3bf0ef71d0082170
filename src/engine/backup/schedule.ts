/**
 * The daily backup of a host that stays up for days ([N15] in docs/PACKAGING.md): shortly after
 * start a backup is taken if one is due, then the host looks again every hour. One at a time
 * (takeBackup shares one in flight); a failure is logged, never thrown into the host. Each look
 * also drops activity older than it is kept ([B3] in docs/WORKSPACE.md).
 */
import type { Db } from '../db/driver.ts';
import { pruneTelemetry } from '../telemetry.ts';
import { backupDir, backupDue, KEEP_DAYS, pruneBackups, takeBackup } from './backups.ts';

/** After start, so opening the workspace stays fast. */
const FIRST_LOOK_MS = 60_000;
const EVERY_MS = 60 * 60 * 1000;

export class BackupSchedule {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly home: string,
    private readonly options: { firstLookMs?: number; everyMs?: number; onTaken?: () => void } = {},
  ) {}

  start(): void {
    this.schedule(this.options.firstLookMs ?? FIRST_LOOK_MS);
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.running = this.look().finally(() => {
        this.running = null;
        this.schedule(this.options.everyMs ?? EVERY_MS);
      });
    }, ms);
    this.timer.unref();
  }

  /** Takes a backup if one is due, and prunes; answers whether one was taken. */
  async look(now = new Date()): Promise<void> {
    const dir = backupDir(this.home);
    try {
      pruneTelemetry(this.db, now);
    } catch (err) {
      console.error(`[activity] old activity could not be removed: ${(err as Error).message}`);
    }
    try {
      if (!backupDue(dir, now)) return;
      await takeBackup(this.db, dir, { now });
      pruneBackups(dir, KEEP_DAYS, now);
      this.options.onTaken?.();
    } catch (err) {
      console.error(`[backup] the daily backup failed: ${(err as Error).message}`);
    }
  }

  /** Stops looking; a backup being taken is waited for (the database closes after). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
