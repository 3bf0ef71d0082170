/**
 * [Z1] in docs/SECURITY.md: a ZIP whose headers lie about sizes is stopped by counting the bytes
 * actually inflated, through the path indexing uses (extractFile and its worker).
 */
import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDocx, buildXlsx } from '../../../test/ingest-helpers/build-office.ts';
import {
  bombEntry,
  GiB,
  rawEntries,
  twoDirectories,
  withLyingEntry,
  writeZip,
} from '../../../test/ingest-helpers/zip-bomb.ts';
import { closeIngestWorkers, extractFile } from './index.ts';

afterAll(() => closeIngestWorkers());

type Run<T> = { value: T | undefined; error: unknown; ms: number; rssGrowthMb: number };

/** Runs `fn`, sampling the process RSS (the worker thread included) for the peak growth. */
async function measured<T>(fn: () => Promise<T>): Promise<Run<T>> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const t0 = performance.now();
  let value: T | undefined;
  let error: unknown;
  try {
    value = await fn();
  } catch (err) {
    error = err;
  }
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const run = {
    value,
    error,
    ms: Math.round(performance.now() - t0),
    rssGrowthMb: (peak - before) / 2 ** 20,
  };
  console.log(`[Z1] ${run.ms} ms, peak RSS growth ${run.rssGrowthMb.toFixed(0)} MB`);
  return run;
}

/** Whether JSZip itself (what mammoth and exceljs use) would inflate `name` past `limit` bytes. */
function jszipInflatesPast(zip: JSZip, name: string, limit: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const stream = zip.file(name)!.nodeStream('nodebuffer');
    let n = 0;
    stream.on('data', (chunk: Buffer) => {
      n += chunk.length;
      if (n > limit) {
        stream.pause();
        resolve(true);
      }
    });
    stream.on('end', () => resolve(false));
    stream.on('error', reject);
  });
}

const docText = ['The real document text.'];
const BOMB = /^looks like a zip bomb: word\/document\.xml inflates past its declared 60 KB$/;

describe('[Z1] zip archives that lie about their sizes', () => {
  it('[Z1] a DOCX whose directory lies about sizes is refused by counting inflated bytes', async () => {
    const bytes = await withLyingEntry(await buildDocx(docText), 'word/document.xml', 6 * GiB);
    expect(bytes.length).toBeLessThan(30 * 2 ** 20);
    const run = await measured(() => extractFile(bytes, 'docx', 'bomb.docx'));
    expect(run.error).toMatchObject({ code: 'refused', message: expect.stringMatching(BOMB) });
    expect(run.error).toMatchObject({ details: { file: 'bomb.docx' } });
    expect(run.ms).toBeLessThan(10_000);
    expect(run.rssGrowthMb).toBeLessThan(512);
  });

  it('[Z1] an XLSX whose directory lies about sizes is refused by counting inflated bytes', async () => {
    const book = await buildXlsx([{ name: 'S', rows: [['a', 1]] }]);
    const bytes = await withLyingEntry(book, 'xl/worksheets/sheet1.xml', 6 * GiB);
    const run = await measured(() => extractFile(bytes, 'xlsx', 'bomb.xlsx'));
    expect(run.error).toMatchObject({
      code: 'refused',
      message: 'looks like a zip bomb: xl/worksheets/sheet1.xml inflates past its declared 60 KB',
      details: { file: 'bomb.xlsx' },
    });
    expect(run.ms).toBeLessThan(10_000);
    expect(run.rssGrowthMb).toBeLessThan(512);
  });

  it('[Z1] every entry is checked: duplicates, local names and data descriptors cannot hide a lie', async () => {
    const entries = await rawEntries(await buildDocx(docText));
    const lie = bombEntry('word/document.xml', 60 * 1024, 2 * GiB);
    const variants = {
      // JSZip keeps the last of two entries with one name, so mammoth would read the lie.
      duplicate: [...entries, lie],
      // JSZip names an entry from its local header, not from the directory.
      localName: [...entries, { ...lie, name: 'word/notes.xml', localName: 'word/document.xml' }],
      // Sizes only in the directory and a data descriptor, none in the local header.
      descriptor: entries.map((e) => (e.name === 'word/document.xml' ? { ...lie, descriptor: true } : e)),
    };
    for (const [what, list] of Object.entries(variants)) {
      const bytes = writeZip(list);
      // Unchecked, the parsers' JSZip would inflate the lie as word/document.xml.
      expect(await jszipInflatesPast(await JSZip.loadAsync(bytes), 'word/document.xml', 2 ** 20), what).toBe(
        true,
      );
      const run = await measured(() => extractFile(bytes, 'docx', `${what}.docx`));
      expect(run.error, what).toMatchObject({
        code: 'refused',
        message: expect.stringMatching(/^looks like a zip bomb: /),
      });
      expect(run.ms, what).toBeLessThan(10_000);
    }
  });

  it('[Z1] entries outside the checked directory never reach the parser', async () => {
    const entries = await rawEntries(await buildDocx(docText));
    const hidden = bombEntry('word/document.xml', 60 * 1024, 2 * GiB);
    const archives = {
      // JSZip reads directory records past the count in the end record.
      pastTheCount: writeZip([...entries, hidden], entries.length),
      // JSZip follows a ZIP64 record that the 32-bit end record does not call for.
      secondDirectory: twoDirectories(entries, [...entries, hidden]),
    };
    for (const [what, bytes] of Object.entries(archives)) {
      // Unchecked, the parsers' JSZip would inflate the hidden lie.
      expect(await jszipInflatesPast(await JSZip.loadAsync(bytes), 'word/document.xml', 2 ** 20), what).toBe(
        true,
      );
      const run = await measured(() => extractFile(bytes, 'docx', `${what}.docx`));
      expect(run.error, what).toBeUndefined();
      expect(
        run.value!.chunks.map((c) => c.body),
        what,
      ).toEqual(docText);
      expect(run.rssGrowthMb, what).toBeLessThan(512);
    }
  });
});
