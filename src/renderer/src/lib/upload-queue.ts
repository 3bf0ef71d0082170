/**
 * Dropped files reach the browser host one request per file. This runs them with a small concurrency,
 * reports progress, and merges the per-file AddReports into one, so a drop of 200 files reads as one
 * result: N added, N unchanged, and each refused file with its reason.
 */
import type { AddReport } from '#shared/api/types.ts';

export type QueueProgress = { done: number; total: number; current: string | null };

/** Runs `worker` over `items`, at most `concurrency` at once, keeping results in input order. */
export async function runQueue<T, R>(
  items: readonly T[],
  concurrency: number,
  worker: (item: T, index: number) => Promise<R>,
  onProgress?: (done: number, total: number, item: T) => void,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let done = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      const item = items[index] as T;
      results[index] = await worker(item, index);
      done++;
      onProgress?.(done, items.length, item);
    }
  };
  const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, lane);
  await Promise.all(lanes);
  return results;
}

export function emptyReport(): AddReport {
  return { added: [], unchanged: [], refused: [] };
}

export function mergeReports(reports: readonly AddReport[]): AddReport {
  const merged = emptyReport();
  for (const r of reports) {
    merged.added.push(...r.added);
    merged.unchanged.push(...r.unchanged);
    merged.refused.push(...r.refused);
  }
  const kept = reports.flatMap((r) => r.scopeKept ?? []);
  if (kept.length > 0) merged.scopeKept = kept;
  return merged;
}

/** A file the host could not take at all (network error, oversized body) still shows up as refused. */
export function refusedReport(path: string, reason: string): AddReport {
  return { added: [], unchanged: [], refused: [{ path, reason }] };
}

/** "3 added, 1 unchanged, 2 refused" (only the non-zero parts; "Nothing added" when empty). */
export function summarizeReport(report: AddReport): string {
  const parts: string[] = [];
  if (report.added.length) parts.push(`${report.added.length} added`);
  if (report.unchanged.length) parts.push(`${report.unchanged.length} unchanged`);
  if (report.refused.length) parts.push(`${report.refused.length} refused`);
  return parts.length ? parts.join(', ') : 'Nothing added';
}
