/**
 * Indexing in the background of a long-lived host (the app, `brain serve`): requests queue jobs in
 * the persistent queue and one loop works it, reporting every file as it starts and ends. The UI
 * never waits on it.
 */
import type { IndexProgressEvent } from '#shared/api/events.ts';
import type { Engine } from '../engine.ts';
import { enqueue } from '../jobs/jobs.ts';
import { getRow } from '../read/items.ts';
import { canSee } from '../scope.ts';
import { embedMissing, workQueue } from './index-queue.ts';

export class IndexRunner {
  private loop: Promise<void> | null = null;
  private batch = { done: 0, total: 0 };
  private closed = false;

  constructor(
    private readonly engine: Engine,
    private readonly emit: (p: IndexProgressEvent) => void,
    private readonly onIdle: () => void,
  ) {}

  /** Queues files (none given: every file not indexed) and returns how many were queued. */
  request(ids?: readonly string[]): number {
    const scopes = this.engine.scopes();
    const targets = ids?.length
      ? ids.filter((id) => {
          const row = getRow(this.engine.db, id);
          return row?.storage_kind === 'file' && row.retired_at === null && canSee(scopes, row.scope);
        })
      : (
          this.engine.db
            .prepare(
              `SELECT id FROM items WHERE storage_kind = 'file' AND indexed = 0 AND retired_at IS NULL
               AND scope IN (SELECT value FROM json_each(?))`,
            )
            .all(JSON.stringify(scopes)) as { id: string }[]
        ).map((r) => r.id);
    const queued = enqueue(this.engine.db, 'index', targets);
    this.batch.total += queued;
    for (const id of targets) {
      const label = getRow(this.engine.db, id)?.label ?? id;
      this.emit({ fileId: id, label, phase: 'queued', ...this.batch });
    }
    this.kick();
    return queued;
  }

  /** Picks up work left in the queue by an earlier run (a crash, a kill). */
  resume(): void {
    this.kick();
  }

  private kick(): void {
    if (this.loop || this.closed) return;
    this.loop = this.run().finally(() => {
      this.loop = null;
      this.batch = { done: 0, total: 0 };
      this.onIdle();
    });
  }

  private async run(): Promise<void> {
    const ctx = {
      db: this.engine.db,
      blobs: this.engine.blobs,
      workspaceId: this.engine.workspaceId,
      embedder: this.engine.embedder,
    };
    await workQueue(ctx, {
      onStart: (fileId, label) => {
        if (this.batch.total <= this.batch.done) this.batch.total = this.batch.done + 1;
        this.emit({ fileId, label, phase: 'indexing', ...this.batch });
      },
      onPage: (fileId, label, p) => this.emit({ fileId, label, phase: 'indexing', ...this.batch, ...p }),
      onDone: (o) => {
        this.batch.done += 1;
        this.emit({
          fileId: o.id,
          label: o.label,
          phase: o.ok ? 'indexed' : 'failed',
          reason: o.reason ?? undefined,
          sections: o.sections,
          ...this.batch,
        });
      },
    });
    if (this.closed) return;
    await embedMissing(ctx, (p) =>
      this.emit({ fileId: '', label: 'embedding', phase: 'embedding', done: p.done, total: p.total }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.loop;
  }
}
