/**
 * What a long-lived host (the app, `brain serve`) does for agent brains in the background
 * (docs/AGENTS.md [G3], [G5]): every minute or so it synthesizes the agents that are due (enough
 * new observations for their tier, an hour since the last synthesis), one at a time, each claimed
 * in the database so two hosts never synthesize one agent at once; and once a day it prunes. Only
 * agents in scopes this host's member may write are synthesized. Closing the host aborts a
 * synthesis in flight (its model call gets the host's AbortSignal): the claim is given back and
 * nothing is written.
 */
import type { EventName, Events } from '#shared/api/events.ts';
import type { AgentRow } from '../agents/agents.ts';
import { SYNTHESIS } from '../agents/config.ts';
import { pruneObservations } from '../agents/prune.ts';
import { notDueReason, synthesizeAgent } from '../agents/synthesize.ts';
import type { Engine } from '../engine.ts';
import { offReason, readModelConfig, resolveModel } from '../llm/config.ts';
import { canSee } from '../scope.ts';

type Emit = <E extends EventName>(event: E, payload: Events[E]) => void;

const POLL_MS = 60_000;
const DAY_MS = 86_400_000;

export type AgentWorkOptions = { pollMs?: number; now?: () => Date };

export class AgentBrainWork {
  private timer: ReturnType<typeof setInterval> | null = null;
  private loop: Promise<void> | null = null;
  private closed = false;
  private lastPrune = 0;
  /** When each agent's last synthesis here failed: it waits the interval before the next try. */
  private readonly failedAt = new Map<string, number>();
  private readonly stopping = new AbortController();
  private readonly pollMs: number;
  private readonly now: () => Date;

  constructor(
    private readonly engine: Engine,
    private readonly emit: Emit,
    options: AgentWorkOptions = {},
  ) {
    this.pollMs = options.pollMs ?? (Number(process.env.BRAIN_AGENTS_POLL_MS) || POLL_MS);
    this.now = options.now ?? (() => new Date());
  }

  start(): void {
    this.kick();
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref?.();
  }

  /** Runs the due syntheses and the daily prune now, unless a round is running. */
  kick(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.loop) return this.loop;
    this.loop = this.round()
      .catch((err: unknown) => console.error('[agents]', err))
      .finally(() => {
        this.loop = null;
      });
    return this.loop;
  }

  /**
   * The agents this member may synthesize that are due now. One whose last synthesis failed (the
   * model down, a reply that was no brain) waits the hourly interval before it is tried again, so a
   * failing model is not paid every minute; the failure itself changes nothing stored ([G3]).
   */
  private dueAgents(): AgentRow[] {
    const { db, workspaceId } = this.engine;
    const visible = this.engine.scopes();
    const now = this.now().getTime();
    const rows = db
      .prepare('SELECT * FROM agents WHERE workspace_id = ? ORDER BY name')
      .all(workspaceId) as AgentRow[];
    return (
      rows
        // A claim held by a live lease is another process's; one that ran out is taken over ([G3]).
        .filter((a) => canSee(visible, a.scope) && (a.synthesis_lease_until ?? 0) < Date.now())
        .filter((a) => now - (this.failedAt.get(a.id) ?? -Infinity) >= SYNTHESIS.minIntervalMs)
        .filter((a) => notDueReason(db, a, this.now()) === null)
    );
  }

  private async round(): Promise<void> {
    const { db, workspaceId, user } = this.engine;
    if (this.now().getTime() - this.lastPrune >= DAY_MS) {
      this.lastPrune = this.now().getTime();
      if (pruneObservations(db, workspaceId, user, { now: this.now() }).pruned > 0)
        this.emit('activity.changed', { at: new Date().toISOString() });
    }
    if (offReason(readModelConfig(db)) !== null) return;
    const due = this.dueAgents();
    if (due.length === 0) return;
    const access = await resolveModel(db, this.engine.home);
    if (!access) return;
    for (const agent of due) {
      if (this.closed) return;
      const out = await synthesizeAgent(db, agent, access, {
        user,
        now: this.now,
        signal: this.stopping.signal,
      });
      if (out.state === 'failed') this.failedAt.set(agent.id, this.now().getTime());
      else this.failedAt.delete(agent.id);
      if (out.state === 'synthesized') this.emit('activity.changed', { at: new Date().toISOString() });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.stopping.abort(); // a synthesis in flight gives its claim back and writes nothing
    await this.loop;
  }
}
