/**
 * A host that stays up (the app's engine, `brain serve`) keeps its connected repositories built
 * (docs/TREES.md [T4]): every minute it looks at each one's tip (the branch's commit, or a plain
 * folder's fingerprint, a received tree's record, src/engine/tree/due.ts) and builds again when it
 * moved, one at a time, and again after each pull. A build that failed is not tried again on the
 * same commit. The documents a build stored anew are queued for indexing.
 */
import type { Engine } from '../engine.ts';
import { buildDueTrees } from '../tree/due.ts';

const TREE_POLL_MS = 60_000;

export class TreeWatch {
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly engine: Engine,
    private readonly onBuilt: (tree: string, added: string[]) => void,
    private readonly pollMs = Number(process.env.BRAIN_TREE_POLL_MS) || TREE_POLL_MS,
  ) {}

  start(): void {
    this.kick();
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref?.();
  }

  /** Looks at every repository now (no-op while a look is running). */
  kick(): void {
    if (this.closed || this.running) return;
    this.running = this.look()
      .catch((err: unknown) => console.error('[trees]', err))
      .finally(() => {
        this.running = null;
      });
  }

  private async look(): Promise<void> {
    const built = await buildDueTrees(this.engine, { closed: () => this.closed });
    for (const b of built) this.onBuilt(b.tree, b.outcome?.added ?? []);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
