/**
 * `index`: queue the files, then work the persistent queue until it is empty. Jobs left by a
 * process that crashed or was killed are taken over; several processes may work one queue.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { EMBED_BATCH } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import type { PageProgress } from '../ingest/types.ts';
import { claim, enqueue, finish, heartbeat } from '../jobs/jobs.ts';
import { getRow, type ItemRow, vecUpsert } from '../read/items.ts';
import { canSee } from '../scope.ts';
import { type IndexContext, indexFile, markFailed } from './indexer.ts';

/** `page`/`pages`: how far the file being indexed has been read, for a PDF (docs/OCR.md [O4]). */
export type IndexProgress = {
  done: number;
  total: number;
  label: string;
  phase: 'index' | 'embed';
  page?: number;
  pages?: number;
};
export type IndexReport = {
  indexed: { id: string; label: string; sections: number }[];
  failed: { id: string; label: string; reason: string }[];
  /** Items given vectors in this run that were indexed earlier without them (model off, or another model). */
  embedded: number;
};
export type QueueContext = IndexContext & { scopes: readonly string[] };

const BEAT_MS = 10_000;
/** The most often a file's page progress is told (a text PDF reads hundreds of pages a second). */
const PAGE_MS = 250;

function targets(ctx: QueueContext, ids: readonly string[]): ItemRow[] {
  if (ids.length === 0) {
    return (
      stmt(
        ctx.db,
        "SELECT * FROM items WHERE storage_kind = 'file' AND indexed = 0 AND retired_at IS NULL ORDER BY rowid",
      ).all() as ItemRow[]
    ).filter((r) => canSee(ctx.scopes, r.scope));
  }
  return ids.map((id) => {
    const row = getRow(ctx.db, id);
    if (!row || !canSee(ctx.scopes, row.scope)) throw new AppError('not-found', `No item with id ${id}.`);
    if (row.storage_kind !== 'file')
      throw new AppError('validation-failed', `${id} is a ${row.storage_kind}, not a file.`);
    return row;
  });
}

export async function runIndex(
  ctx: QueueContext,
  ids: readonly string[],
  onProgress?: (p: IndexProgress) => void,
): Promise<IndexReport> {
  const files = targets(ctx, ids);
  enqueue(
    ctx.db,
    'index',
    files.map((f) => f.id),
  );
  const wanted = new Set(files.map((f) => f.id));
  let done = 0;
  await workQueue(ctx, {
    onStart: (_id, label) => onProgress?.({ done, total: files.length, label, phase: 'index' }),
    onPage: (_id, label, p) => onProgress?.({ done, total: files.length, label, phase: 'index', ...p }),
    onDone: (outcome) => {
      // The command fails as a whole ([B2] in docs/WORKSPACE.md); the job is taken again next run.
      if (outcome.busy) throw new AppError('busy', outcome.reason ?? 'The workspace is busy.');
      if (wanted.has(outcome.id)) done += 1;
      onProgress?.({ done, total: files.length, label: outcome.label, phase: 'index' });
    },
    // another process is working on some of ours: wait for it
    waitWhile: () => openJobsFor(ctx.db, wanted),
  });
  const embedded = await embedMissing(ctx, onProgress);
  return { ...report(ctx.db, files), embedded };
}

type JobOutcome = {
  id: string;
  label: string;
  ok: boolean;
  reason: string | null;
  sections: number;
  /** Another process held the write lock too long: nothing was marked failed. */
  busy?: boolean;
};

export type QueueHooks = {
  onStart?: (fileId: string, label: string) => void;
  /** A page of the file being indexed was read (PDFs): at most a few times a second. */
  onPage?: (fileId: string, label: string, progress: PageProgress) => void;
  onDone?: (outcome: JobOutcome) => void;
  /** Keep polling while this says so, after the queue looks empty to this process. */
  waitWhile?: () => boolean;
};

/** Works the index queue until nothing is left that this process can take. */
export async function workQueue(ctx: IndexContext, hooks: QueueHooks = {}): Promise<void> {
  for (;;) {
    const job = claim(ctx.db, 'index');
    if (!job) {
      if (!hooks.waitWhile?.()) return;
      await sleep(300);
      continue;
    }
    const label = getRow(ctx.db, job.item_id)?.label ?? job.item_id;
    hooks.onStart?.(job.item_id, label);
    const onPage = hooks.onPage ? (p: PageProgress) => hooks.onPage?.(job.item_id, label, p) : undefined;
    hooks.onDone?.(await runJob(ctx, job.id, job.item_id, label, onPage));
  }
}

async function runJob(
  ctx: IndexContext,
  jobId: number,
  itemId: string,
  label: string,
  onPage?: (p: PageProgress) => void,
): Promise<JobOutcome> {
  let last = Date.now();
  let told = 0;
  const beat = (progress?: PageProgress) => {
    // Pages are told at most every PAGE_MS, and always the last one.
    if (progress && onPage && (Date.now() - told >= PAGE_MS || progress.page === progress.pages)) {
      told = Date.now();
      try {
        onPage(progress);
      } catch {
        // a listener's failure does not stop the index
      }
    }
    if (Date.now() - last < BEAT_MS) return;
    last = Date.now();
    try {
      heartbeat(ctx.db, jobId);
    } catch {
      // a busy database delays the heartbeat; the lease is long enough to survive it
    }
  };
  try {
    // The job is done in the same transaction that writes the index: one commit per file.
    const outcome = await indexFile(ctx, itemId, beat, () => finish(ctx.db, jobId, null));
    return { id: itemId, label, ok: true, reason: null, sections: outcome.sections };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    // Not the file's fault: leave it unmarked; the lease lapses (or its process is gone) and it runs again.
    if (err instanceof AppError && err.code === 'busy')
      return { id: itemId, label, ok: false, reason, sections: 0, busy: true };
    try {
      markFailed(ctx.db, itemId, reason);
      finish(ctx.db, jobId, reason);
    } catch {
      // the job stays leased and is taken again later; nothing half-written remains
    }
    return { id: itemId, label, ok: false, reason, sections: 0 };
  }
}

function openJobsFor(db: Db, wanted: ReadonlySet<string>): boolean {
  const open = stmt(
    db,
    "SELECT item_id FROM jobs WHERE kind = 'index' AND state IN ('queued','running')",
  ).all() as {
    item_id: string;
  }[];
  return open.some((j) => wanted.has(j.item_id));
}

function report(db: Db, files: readonly ItemRow[]): Omit<IndexReport, 'embedded'> {
  const out: Omit<IndexReport, 'embedded'> = { indexed: [], failed: [] };
  for (const f of files) {
    const row = getRow(db, f.id);
    if (!row) continue;
    if (row.indexed === 1 && row.index_error === null) {
      const n = stmt(
        db,
        "SELECT COUNT(*) AS n FROM items WHERE file_id = ? AND storage_kind = 'section' AND retired_at IS NULL",
      ).get(row.id) as { n: number };
      out.indexed.push({ id: row.id, label: row.label, sections: n.n });
    } else {
      out.failed.push({ id: row.id, label: row.label, reason: row.index_error ?? 'not indexed' });
    }
  }
  return out;
}

/** Items indexed while the model was off (or with another model) get their vectors now. */
export async function embedMissing(
  ctx: IndexContext,
  onProgress?: (p: IndexProgress) => void,
): Promise<number> {
  if (ctx.embedder.state().status !== 'on') return 0;
  const model = ctx.embedder.modelId();
  if (!model) return 0;
  const missing = stmt(
    ctx.db,
    `SELECT rowid FROM items WHERE indexed = 1 AND retired_at IS NULL
       AND (embedded_model IS NULL OR embedded_model != ?) ORDER BY rowid`,
  ).all(model) as { rowid: number }[];
  let done = 0;
  for (let i = 0; i < missing.length; i += EMBED_BATCH) {
    const rows = missing
      .slice(i, i + EMBED_BATCH)
      .map((m) => stmt(ctx.db, 'SELECT * FROM items WHERE rowid = ?').get(m.rowid) as ItemRow | undefined)
      .filter((r): r is ItemRow => r !== undefined);
    let vectors: Float32Array[];
    try {
      vectors = await ctx.embedder.embed(rows.map((r) => `${r.label}\n${r.body}`));
    } catch {
      return done; // the model went away: keyword search still works, the rest waits for next time
    }
    const usedModel = ctx.embedder.modelId() ?? model;
    writeTx(ctx.db, () => {
      rows.forEach((r, j) => {
        const v = vectors[j];
        const current = getRow(ctx.db, r.id);
        if (v && current && current.body === r.body && current.retired_at === null)
          vecUpsert(ctx.db, current, usedModel, v);
      });
    });
    done += rows.length;
    onProgress?.({ done, total: missing.length, label: 'embedding', phase: 'embed' });
  }
  return done;
}
