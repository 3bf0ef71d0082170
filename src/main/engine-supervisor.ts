/**
 * Keeps the engine process running ([N13] in docs/PACKAGING.md): when it stops without being
 * asked to, the calls it had in flight fail with `engine-unavailable` (they may have written
 * already, so none is sent again), the window is told, and a new engine process starts after a
 * short wait. The queue is not lost: a new engine resumes the indexing an earlier one left
 * (BrainHost.start in src/engine/host/host.ts). After `maxCrashes` stops within `windowMs` it
 * gives up and says so. No electron import: engine-supervisor.test.ts runs it over fakes.
 */
import type { BridgeResult } from '#shared/api/bridge.ts';

/** What the supervisor needs of an engine process (src/main/engine-process.ts). */
export type SupervisedEngine = {
  invoke(name: string, input: unknown): Promise<BridgeResult>;
  stop(): Promise<void>;
};

export type EngineNotice =
  | { kind: 'restarting'; reason: string; attempt: number }
  | { kind: 'gave-up'; reason: string };

export type RestartPolicy = { maxCrashes: number; windowMs: number; delaysMs: readonly number[] };

export const RESTART_POLICY: RestartPolicy = { maxCrashes: 3, windowMs: 60_000, delaysMs: [500, 2000, 5000] };

/**
 * How long to wait before starting again after a stop at `now`, given the earlier stops' times,
 * or null to give up: more than `maxCrashes` stops within `windowMs`.
 */
export function restartDelay(
  crashes: readonly number[],
  now: number,
  policy = RESTART_POLICY,
): number | null {
  const recent = crashes.filter((t) => now - t < policy.windowMs);
  if (recent.length >= policy.maxCrashes) return null;
  return policy.delaysMs[Math.min(recent.length, policy.delaysMs.length - 1)] ?? 0;
}

export type SupervisorOptions = {
  /** Starts an engine process; `onExit` is called if it stops by itself. */
  start: (onExit: (reason: string) => void) => SupervisedEngine;
  notify: (notice: EngineNotice) => void;
  policy?: RestartPolicy;
  now?: () => number;
  schedule?: (fn: () => void, ms: number) => void;
};

export class EngineSupervisor {
  private current: SupervisedEngine | null = null;
  private starting: Promise<void> | null = null;
  private readonly crashes: number[] = [];
  private stopped = false;
  private gaveUp: string | null = null;
  private generation = 0;

  constructor(private readonly options: SupervisorOptions) {
    this.launch();
  }

  private launch(): void {
    const generation = ++this.generation;
    this.current = this.options.start((reason) => {
      if (generation === this.generation) this.crashed(reason);
    });
  }

  private crashed(reason: string): void {
    if (this.stopped) return;
    const now = (this.options.now ?? Date.now)();
    const delay = restartDelay(this.crashes, now, this.options.policy);
    this.crashes.push(now);
    this.current = null;
    if (delay === null) {
      this.gaveUp = reason;
      this.options.notify({ kind: 'gave-up', reason });
      return;
    }
    this.options.notify({ kind: 'restarting', reason, attempt: this.crashes.length });
    const schedule = this.options.schedule ?? ((fn, ms) => void setTimeout(fn, ms));
    this.starting = new Promise((resolve) => {
      schedule(() => {
        this.starting = null;
        if (!this.stopped) this.launch();
        resolve();
      }, delay);
    });
  }

  /** A call: on the running engine, or the next one while it restarts. */
  async invoke(name: string, input: unknown): Promise<BridgeResult> {
    if (this.starting) await this.starting;
    if (!this.current) {
      const message = this.gaveUp
        ? `The engine stopped and could not be started again (${this.gaveUp}). Restart Org Brain.`
        : 'The engine is not running.';
      return { ok: false, error: { code: 'engine-unavailable', message } };
    }
    return this.current.invoke(name, input);
  }

  /** Stops the engine for good (the app is quitting): no restart after this. */
  async stop(): Promise<void> {
    this.stopped = true;
    const running = this.current;
    this.current = null;
    await running?.stop();
  }
}
