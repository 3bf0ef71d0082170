/**
 * A host that stays up (the app's engine, `brain serve`) keeps its connected repositories built
 * (docs/TREES.md [T4]): every minute it looks at each one's tip (the branch's commit, or a plain
 * folder's fingerprint) and builds again when it moved, one at a time. A build that failed is
 * not tried again on the same commit. The documents a build stored anew are queued for indexing.
 */
import type { Engine } from '../engine.ts';
import { buildSource, listSources, tipOf } from '../tree/sources.ts';

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
    for (const source of listSources(this.engine)) {
      if (this.closed) return;
      // Not skipped while `indexing`: a process killed mid-build leaves that state behind, and two
      // builds at once are safe (the second finds the tree moved and leaves it as it is).
      if (source.state === 'off') continue;
      const tip = await tipOf(source).catch(() => null);
      if (!tip || tip === source.indexedCommit) continue;
      if (source.state === 'failed' && tip === source.attemptedCommit) continue;
      try {
        const outcome = await buildSource(this.engine, source.id);
        this.onBuilt(source.id, outcome.added);
      } catch {
        this.onBuilt(source.id, []); // failed: its state says why
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
