import { afterAll, describe, expect, it } from 'vitest';
import { buildPdf } from '../../../test/ingest-helpers/build-pdf.ts';
import { closeIngestWorkers, extractFile } from './index.ts';

afterAll(() => closeIngestWorkers());

const pdf = buildPdf([['hello from the worker']]);

describe('extraction worker bounds', () => {
  it('a job past its timeout kills the worker; the next call gets a fresh one', async () => {
    await expect(extractFile(pdf, 'pdf', 'slow.pdf', { timeoutMs: 5 })).rejects.toMatchObject({
      code: 'refused',
      message: 'took longer than 0.005 s to read; gave up',
      details: { file: 'slow.pdf' },
    });
    const ex = await extractFile(pdf, 'pdf', 'ok.pdf');
    expect(ex.chunks.map((c) => c.body)).toEqual(['hello from the worker']);
  });

  it('queued jobs run one after another and all finish', async () => {
    const all = await Promise.all([1, 2, 3].map((i) => extractFile(pdf, 'pdf', `f${i}.pdf`)));
    expect(all.map((e) => e.chunks[0]!.label)).toEqual([
      'f1.pdf, page 1',
      'f2.pdf, page 1',
      'f3.pdf, page 1',
    ]);
  });

  it('a worker past its heap limit is killed with a plain reason', async () => {
    const big = buildPdf(
      Array.from({ length: 400 }, (_, p) =>
        Array.from({ length: 50 }, (_, i) => `page ${p} line ${i} ${'x'.repeat(80)}`),
      ),
    );
    await expect(extractFile(big, 'pdf', 'big.pdf', { maxHeapMb: 8 })).rejects.toMatchObject({
      message: 'needed more than 8 MB of memory to read; gave up',
    });
    expect((await extractFile(pdf, 'pdf', 'ok.pdf')).chunks).toHaveLength(1);
  });

  it('closing rejects nothing that already finished and allows a restart', async () => {
    await closeIngestWorkers();
    expect((await extractFile(pdf, 'pdf', 'again.pdf')).chunks).toHaveLength(1);
  });
});
