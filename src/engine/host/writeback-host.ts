/**
 * What a long-lived host (the app, `brain serve`) does for write-back, the inbox, the audit pass
 * and model-backed chat, in the background of its loop:
 *  - a write-back loop that looks for runs waiting for their pass (ended by agents in any process,
 *    or remembered from a chat, or left by a process killed mid-pass once its lease ran out) every
 *    few seconds, and right away when asked; passes are claimed in the database, so several hosts
 *    never run the same one twice, and a host that stops gives back the pass in flight ([J1]–[J4]
 *    in docs/WORKSPACE.md: an agent's `brain mcp` leaves its runs to this loop when it is the owner);
 *  - an audit queue fed by the index runner, one file at a time;
 *  - with a chat model, a compile queue (docs/FACTS.md [K9], [K11]): each file after its audit, the
 *    notes of this replica's member waiting for a pass (written by add_to_brain or write-back, in
 *    this process or another), and the files whose last pass failed once the retry delay passed,
 *    looked for on the same timer; one source at a time, claimed in the database so another process
 *    never compiles it at the same time. Closing the host aborts the pass in flight (its model
 *    call), which writes nothing and gives its claim back.
 * Nothing here ever blocks a command: they queue work and return.
 */
import type { EventName, Events } from '#shared/api/events.ts';
import { auditFile } from '../audit/index.ts';
import { compileRefusal, compileSource, isTreeDocument, pendingSources } from '../compile/index.ts';
import type { Engine } from '../engine.ts';
import { offReason, readModelConfig, resolveModel } from '../llm/config.ts';
import { getRow } from '../read/items.ts';
import { pendingRuns, runPendingWritebacks } from '../writeback/pass.ts';

type Emit = <E extends EventName>(event: E, payload: Events[E]) => void;

const WRITEBACK_POLL_MS = 3000;
/** A source (note or file) whose compile failed (the model was down, say) is tried again after this long. */
const COMPILE_RETRY_MS = 10 * 60_000;

export class BrainWork {
  private timer: ReturnType<typeof setInterval> | null = null;
  private loop: Promise<void> | null = null;
  private again = false;
  private readonly audits: string[] = [];
  private auditing: Promise<void> | null = null;
  private readonly compiles: string[] = [];
  private compiling: Promise<void> | null = null;
  private closed = false;
  private readonly stopping = new AbortController();

  constructor(
    private readonly engine: Engine,
    private readonly emit: Emit,
    private readonly pollMs = Number(process.env.BRAIN_WRITEBACK_POLL_MS) || WRITEBACK_POLL_MS,
  ) {}

  start(): void {
    this.kick();
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref?.();
  }

  /** Runs the passes that wait (no-op without a model). */
  kick(): void {
    if (this.closed) return;
    this.compileNotes();
    if (this.loop) {
      this.again = true;
      return;
    }
    if (offReason(readModelConfig(this.engine.db)) !== null) return;
    if (pendingRuns(this.engine.db).length === 0) return;
    this.loop = runPendingWritebacks(this.engine, { signal: this.stopping.signal })
      .then((results) => {
        if (results.length === 0) return;
        this.emit('inbox.changed', { at: new Date().toISOString() });
        this.emit('activity.changed', { at: new Date().toISOString() });
        this.emit('files.changed', { ids: [] });
      })
      .catch((err: unknown) => console.error('[writeback]', err))
      .finally(() => {
        this.loop = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Queues the audit pass of a file that was just indexed. */
  audit(fileId: string): void {
    if (this.closed || this.audits.includes(fileId)) return;
    this.audits.push(fileId);
    if (this.auditing) return;
    this.auditing = (async () => {
      for (let id = this.audits.shift(); id && !this.closed; id = this.audits.shift()) {
        try {
          await auditFile(this.engine, id);
        } catch (err) {
          console.error('[audit]', err);
        }
        this.emit('activity.changed', { at: new Date().toISOString() });
        this.compile(id);
      }
    })().finally(() => {
      this.auditing = null;
    });
  }

  /**
   * Queues the sources of this member that wait for a compile pass ([K11]: only its own): notes,
   * and files whose last pass failed (a file's first pass follows its audit).
   */
  private compileNotes(): void {
    if (offReason(readModelConfig(this.engine.db)) !== null) return;
    const retryBefore = new Date(Date.now() - COMPILE_RETRY_MS).toISOString();
    try {
      const ids = pendingSources(this.engine.db, this.engine.user, {
        notesOnly: true,
        failedFiles: true,
        retryFailedBefore: retryBefore,
      });
      for (const id of ids) this.compile(id);
    } catch (err) {
      console.error('[compile]', err);
    }
  }

  /** Queues the compile pass of a source (a file after its audit, a note); none without a model. */
  compile(id: string): void {
    if (this.closed || this.compiles.includes(id)) return;
    if (offReason(readModelConfig(this.engine.db)) !== null) return;
    this.compiles.push(id);
    if (this.compiling) return;
    this.compiling = (async () => {
      for (let next = this.compiles.shift(); next && !this.closed; next = this.compiles.shift()) {
        try {
          await this.compileOne(next);
        } catch (err) {
          console.error('[compile]', err);
        }
      }
    })().finally(() => {
      this.compiling = null;
      // A source queued while the loop was ending starts it again.
      const left = this.compiles.shift();
      if (left) this.compile(left);
    });
  }

  private async compileOne(id: string): Promise<void> {
    const row = getRow(this.engine.db, id);
    // Only this member's own sources, and a repository's documents only when named ([K11]).
    if (!row || compileRefusal(row, this.engine.user) || isTreeDocument(row)) return;
    const access = await resolveModel(this.engine.db, this.engine.home);
    if (!access) return;
    const outcome = await compileSource(this.engine, access, id, { signal: this.stopping.signal });
    if (!outcome || this.closed || outcome.state === 'skipped' || outcome.state === 'busy') return;
    this.emit('activity.changed', { at: new Date().toISOString() });
    if (outcome.cards > 0) this.emit('inbox.changed', { at: new Date().toISOString() });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    // The passes in flight (write-back, compile) give their claims back instead of being waited for.
    this.stopping.abort();
    await this.loop;
    await this.auditing;
    await this.compiling; // its model call is aborted: it writes nothing ([K11])
  }
}
