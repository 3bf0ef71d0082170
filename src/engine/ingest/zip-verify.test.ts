/** [Z1] in docs/SECURITY.md: the inflate count and the rebuilt archive (zip-verify.ts, zip-rebuild.ts). */
import { inflateRawSync } from 'node:zlib';
import JSZip from 'jszip';
import mammoth from 'mammoth';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDocx, buildXlsx, patchDeclaredSize } from '../../../test/ingest-helpers/build-office.ts';
import { bombEntry, GiB, rawEntries, writeZip } from '../../../test/ingest-helpers/zip-bomb.ts';
import { closeIngestWorkers, extractFile } from './index.ts';
import { readZipDirectory } from './zip-directory.ts';
import { verifiedZip } from './zip-verify.ts';

afterAll(() => closeIngestWorkers());

const docText = ['Rule 1: be kind.', 'Rule 2: write it down.'];

/** Overwrites a 16- or 32-bit field of one entry's central-directory record. */
function patchRecord(
  zip: Uint8Array,
  name: string,
  field: number,
  value: number,
  width: 2 | 4 = 2,
): Uint8Array {
  const out = new Uint8Array(zip);
  const entry = readZipDirectory(out).find((e) => e.name === name)!;
  const dv = new DataView(out.buffer);
  if (width === 2) dv.setUint16(entry.record + field, value, true);
  else dv.setUint32(entry.record + field, value, true);
  return out;
}

async function contents(
  zip: Uint8Array,
): Promise<Record<string, { dir: boolean; date: number; bytes: string }>> {
  const out: Record<string, { dir: boolean; date: number; bytes: string }> = {};
  for (const f of Object.values((await JSZip.loadAsync(zip)).files)) {
    const bytes = Buffer.from(await f.async('uint8array')).toString('base64');
    out[f.name] = { dir: f.dir, date: f.date.getTime(), bytes };
  }
  return out;
}

describe('[Z1] verifiedZip', () => {
  it('[Z1] a normal DOCX and XLSX reach the parsers with the same entries and the same text', async () => {
    const docx = await buildDocx(docText);
    const xlsx = await buildXlsx([{ name: 'People', rows: [['Name'], ['Ann']] }]);
    for (const original of [docx, xlsx]) {
      const rebuilt = await verifiedZip(original, 'document');
      expect(await contents(rebuilt)).toEqual(await contents(original));
    }
    const html = async (bytes: Uint8Array) =>
      (await mammoth.convertToHtml({ buffer: Buffer.from(bytes) })).value;
    expect(await html(await verifiedZip(docx, 'Word document'))).toBe(await html(docx));
    const ex = await extractFile(docx, 'docx', 'rules.docx');
    expect(ex.chunks.map((c) => c.body)).toEqual([docText.join('\n\n')]);
    const book = await extractFile(xlsx, 'xlsx', 'people.xlsx');
    expect(book.chunks.map((c) => c.body)).toEqual(['Name\nAnn']);
  });

  it('[Z1] a declared-huge archive is still refused from its directory, before inflating', async () => {
    const bytes = patchDeclaredSize(await buildDocx(['x']), 'word/document.xml', 0xf0000000);
    await expect(verifiedZip(bytes, 'Word document')).rejects.toMatchObject({
      code: 'refused',
      message: 'looks like a zip bomb (expands to 3840 MB)',
    });
  });

  it('[Z1] real bytes count against the total cap as well as each declared size', async () => {
    const entries = await rawEntries(await buildDocx(docText));
    const big = Array.from({ length: 3 }, (_, i) => bombEntry(`word/media/part${i}.xml`, 4 << 20, 4 << 20));
    const honest = big.map((e) => ({ ...e, declared: inflateRawSync(e.data).length }));
    const bytes = writeZip([...entries, ...honest]);
    await expect(verifiedZip(bytes, 'Word document', 10 << 20)).rejects.toMatchObject({
      code: 'refused',
      message: 'looks like a zip bomb: the entries inflate past 10 MB in total',
    });
    expect((await verifiedZip(bytes, 'Word document', 13 << 20)).length).toBeGreaterThan(0);
  });

  it('[Z1] a lie in an entry declared too big for one call is caught while streaming', async () => {
    const entries = await rawEntries(await buildDocx(docText));
    const lie = bombEntry('word/document.xml', 8 << 20, 2 * GiB);
    const bytes = writeZip(entries.map((e) => (e.name === lie.name ? lie : e)));
    const t0 = performance.now();
    await expect(verifiedZip(bytes, 'Word document')).rejects.toMatchObject({
      message: 'looks like a zip bomb: word/document.xml inflates past its declared 8 MB',
    });
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('[Z1] entries that share bytes are refused', async () => {
    const zip = await buildDocx(docText);
    const first = readZipDirectory(zip)[0]!;
    const bytes = patchRecord(zip, 'word/document.xml', 42, first.localHeaderOffset, 4);
    await expect(verifiedZip(bytes, 'Word document')).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/^looks like a zip bomb: entries .* overlap$/),
    });
  });

  it('[Z1] encrypted entries, unknown methods and missing local headers are refused as unreadable', async () => {
    const zip = await buildDocx(docText);
    const cases: [Uint8Array, string][] = [
      [patchRecord(zip, 'word/document.xml', 8, 0x0001), 'word/document.xml is encrypted'],
      [patchRecord(zip, 'word/document.xml', 10, 9), 'word/document.xml uses compression method 9'],
      [patchRecord(zip, 'word/document.xml', 42, 3, 4), 'word/document.xml has no local header'],
    ];
    for (const [bytes, reason] of cases) {
      await expect(extractFile(bytes, 'docx', 'odd.docx')).rejects.toMatchObject({
        code: 'refused',
        message: expect.stringContaining(`corrupt or unreadable Word document: ${reason}`),
      });
    }
  });

  it('[Z1] an entry that inflates to less than declared is left to the parser, as before', async () => {
    const entries = await rawEntries(await buildDocx(docText));
    const short = entries.map((e) =>
      e.name === 'word/document.xml' ? { ...e, declared: e.declared + 5000 } : e,
    );
    await expect(extractFile(writeZip(short), 'docx', 'short.docx')).rejects.toMatchObject({
      code: 'refused',
      message: 'corrupt or unreadable Word document: Bug : uncompressed data size mismatch',
    });
  });
});
