import { describe, expect, it } from 'vitest';
import { emptyReport, mergeReports, refusedReport, runQueue, summarizeReport } from './upload-queue.ts';

describe('runQueue', () => {
  it('never runs more than the concurrency at once and keeps the order of results', async () => {
    let running = 0;
    let peak = 0;
    const progress: number[] = [];
    const results = await runQueue(
      [30, 5, 20, 1, 10, 2],
      3,
      async (ms, i) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, ms));
        running--;
        return i * 10;
      },
      (done) => progress.push(done),
    );
    expect(results).toEqual([0, 10, 20, 30, 40, 50]);
    expect(peak).toBe(3);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('handles an empty list', async () => {
    expect(await runQueue([], 4, async () => 1)).toEqual([]);
  });
});

describe('reports', () => {
  it('merges per-file reports and summarizes them', () => {
    const merged = mergeReports([
      { added: [{ id: 'a', label: 'a.md', path: 'a.md' }], unchanged: [], refused: [] },
      { added: [], unchanged: [{ id: 'b', label: 'b.md', path: 'b.md' }], refused: [] },
      refusedReport('c.png', 'unsupported format'),
      { added: [{ id: 'd', label: 'd.pdf', path: 'd.pdf' }], unchanged: [], refused: [] },
    ]);
    expect(merged.added.map((x) => x.id)).toEqual(['a', 'd']);
    expect(merged.unchanged).toHaveLength(1);
    expect(merged.refused).toEqual([{ path: 'c.png', reason: 'unsupported format' }]);
    expect(summarizeReport(merged)).toBe('2 added, 1 unchanged, 1 refused');
    expect(summarizeReport(mergeReports([]))).toBe('Nothing added');
  });

  it('[S24] keeps every file that stayed in its scope when merging', () => {
    const kept = { id: 'f', label: 'f.md', path: 'f.md', scope: 'org', asked: 'team:ops' };
    const merged = mergeReports([
      { added: [], unchanged: [{ id: 'f', label: 'f.md', path: 'f.md' }], refused: [], scopeKept: [kept] },
      { added: [], unchanged: [], refused: [] },
    ]);
    expect(merged.scopeKept).toEqual([kept]);
    expect(mergeReports([emptyReport()]).scopeKept).toBeUndefined();
  });
});
