import { afterAll, describe, expect, it } from 'vitest';
import { encodeLegacy } from '../../../test/ingest-helpers/legacy-encode.ts';
import { expectReadBack } from '../../../test/ingest-helpers/read-back.ts';
import { MAX_FIELDS } from './csv.ts';
import { closeIngestWorkers, detectFormat, extractFile, readLocator, readWholeText } from './index.ts';

afterAll(() => closeIngestWorkers());

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('csv', () => {
  it('[F2] renders each record as field: value lines, cited by row range and raw bytes', async () => {
    const src =
      'name,role,city\nAnn,CEO,Oslo\n"Bob ""B"" Jr","Ops, lead","line one\nline two"\n\nCid,,Rome\n';
    const bytes = utf8(src);
    const ex = await extractFile(bytes, 'csv', 'people.csv');
    expect(ex.health).toEqual([]);
    expect(ex.chunks).toHaveLength(1);
    const [chunk] = ex.chunks;
    expect(chunk!.body).toBe(
      'name: Ann\nrole: CEO\ncity: Oslo\n\nname: Bob "B" Jr\nrole: Ops, lead\ncity: line one line two\n\nname: Cid\ncity: Rome',
    );
    expect(chunk!.locator).toEqual({
      type: 'csv',
      rowStart: 2,
      rowEnd: 5,
      byteStart: 15,
      byteEnd: src.length - 1,
    });
    expect(chunk!.label).toBe('people.csv');
    await expectReadBack(bytes, 'csv', ex);
    expect(await readWholeText(bytes, 'csv')).toBe(chunk!.body);
  });

  it('[F2] splits a large table by rows, every chunk naming its fields', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `item ${i},${i * 10},note for row ${i}`);
    const bytes = utf8(`Item,Price,Note\n${rows.join('\n')}`);
    const ex = await extractFile(bytes, 'csv', 'big.csv');
    expect(ex.chunks.length).toBeGreaterThan(5);
    expect(ex.chunks.map((c) => c.key)).toEqual(ex.chunks.map((_, i) => `rows#${i + 1}`));
    for (const c of ex.chunks) {
      expect(c.body.startsWith('Item: ')).toBe(true);
      expect(c.body.length).toBeLessThanOrEqual(1000);
    }
    const locs = ex.chunks.map((c) => c.locator);
    expect(locs[0]).toMatchObject({ rowStart: 2 });
    expect(locs.at(-1)).toMatchObject({ rowEnd: 301 });
    await expectReadBack(bytes, 'csv', ex);
    const whole = await readWholeText(bytes, 'csv');
    for (const c of ex.chunks) expect(whole.includes(c.body)).toBe(true);
  });

  it('[F3] CRLF and CR-only files with quoted newlines read back chunk by chunk from their bytes', async () => {
    for (const nl of ['\r\n', '\r']) {
      const rows = Array.from({ length: 120 }, (_, i) => `"item\n${i}",${i},"a, b"`);
      const bytes = utf8(`Item,N,Note${nl}${rows.join(nl)}${nl}${nl}`);
      const ex = await extractFile(bytes, 'csv', 'crlf.csv');
      expect(ex.health, JSON.stringify(nl)).toEqual([]);
      expect(ex.chunks.length).toBeGreaterThan(3);
      expect(ex.chunks[0]!.body.startsWith('Item: item 0\nN: 0\nNote: a, b')).toBe(true);
      await expectReadBack(bytes, 'csv', ex);
    }
  });

  it('[F1] reads TSV, a BOM, UTF-16 and Windows-1252, with exact byte ranges', async () => {
    const tsv = utf8('\ufeffa\tb\nx, y\tz\n');
    const t = await extractFile(tsv, 'csv', 't.tsv');
    expect(t.chunks[0]!.body).toBe('a: x, y\nb: z');
    expect(t.chunks[0]!.locator).toMatchObject({ byteStart: 7, byteEnd: 13 });
    await expectReadBack(tsv, 'csv', t);

    const le = new Uint8Array([0xff, 0xfe, ...Buffer.from('k,v\ncafé,1\n', 'utf16le')]);
    const u = await extractFile(le, 'csv', 'u.csv');
    expect(u.chunks[0]!.body).toBe('k: café\nv: 1');
    expect(u.chunks[0]!.locator).toMatchObject({ byteStart: 2 + 8, byteEnd: 2 + 8 + 12 });
    expect(u.health).toEqual(['encoding: utf-16le']);
    await expectReadBack(le, 'csv', u);

    const latin = Uint8Array.from([...utf8('k;v\n'), 0x93, 0x71, 0x94, 0x3b, 0x31]);
    const w = await extractFile(latin, 'csv', 'w.csv');
    expect(w.chunks[0]!.body).toBe('k: \u201cq\u201d\nv: 1');
    expect(w.health).toEqual(['not UTF-8: decoded as Windows-1252']);
    await expectReadBack(latin, 'csv', w);
  });

  it('[F2] ragged rows, a header-only file and a blank file', async () => {
    const ragged = await extractFile(utf8('a,b\n1\n2,3,4\n'), 'csv', 'r.csv');
    expect(ragged.chunks[0]!.body).toBe('a: 1\n\na: 2\nb: 3\ncolumn 3: 4');
    expect(ragged.health).toEqual(['2 rows have a different number of fields than the header']);

    const headerOnly = utf8('name,role\n');
    const h = await extractFile(headerOnly, 'csv', 'h.csv');
    expect(h.chunks.map((c) => [c.body, c.locator])).toEqual([
      ['name | role', { type: 'csv', rowStart: 1, rowEnd: 1, byteStart: 0, byteEnd: 9 }],
    ]);
    expect(h.health).toEqual(['only a header row (no records)']);
    await expectReadBack(headerOnly, 'csv', h);

    const blank = await extractFile(utf8('\n ,\n\n'), 'csv', 'b.csv');
    expect(blank.chunks).toEqual([]);
    expect(blank.health).toEqual(['no text (the file is blank)']);
  });

  it("[F1] Excel's sep= first line names the delimiter and is not the header", async () => {
    const bytes = utf8('sep=;\nname;note\nAnn;a, b\n');
    const ex = await extractFile(bytes, 'csv', 'excel.csv');
    expect(ex.chunks.map((c) => c.body)).toEqual(['name: Ann\nnote: a, b']);
    expect(ex.chunks[0]!.locator).toMatchObject({ rowStart: 3, rowEnd: 3 });
    await expectReadBack(bytes, 'csv', ex);
  });

  it('[F3] an unterminated quote stops at that row with a health note; earlier rows stand', async () => {
    const bytes = utf8('a,b\n1,2\n"open,3\n4,5\n6,7\n');
    const ex = await extractFile(bytes, 'csv', 'q.csv');
    expect(ex.chunks[0]!.body).toBe('a: 1\nb: 2');
    expect(ex.health).toEqual(['a quote opened in row 3 is never closed: rows from 3 on were not read']);
    await expectReadBack(bytes, 'csv', ex);
  });

  it('[F2] a 10,000-column row is cut to its first fields, with a note', async () => {
    const wide = Array.from({ length: 10_000 }, (_, i) => `c${i}`);
    const bytes = utf8(`${wide.join(',')}\n${wide.map((_, i) => `v${i}`).join(',')}\n`);
    const ex = await extractFile(bytes, 'csv', 'wide.csv');
    expect(ex.chunks).toHaveLength(1);
    expect(ex.chunks[0]!.body.split('\n')).toHaveLength(MAX_FIELDS);
    expect(ex.health).toEqual([`1 rows have more than ${MAX_FIELDS} fields: the rest are not read`]);
    await expectReadBack(bytes, 'csv', ex);
  });

  it('refuses a locator whose rows moved, and a locator of another type', async () => {
    const bytes = utf8('a\n1\n2\n');
    await expect(
      readLocator(bytes, 'csv', { type: 'csv', rowStart: 2, rowEnd: 3, byteStart: 1, byteEnd: 7 }),
    ).rejects.toMatchObject({ code: 'stale' });
    await expect(
      readLocator(bytes, 'csv', { type: 'csv', rowStart: 9, rowEnd: 9, byteStart: 0, byteEnd: 1 }),
    ).rejects.toMatchObject({ code: 'stale' });
    await expect(
      readLocator(bytes, 'csv', { type: 'docx', charStart: 0, charEnd: 1, lineStart: 1, lineEnd: 1 }),
    ).rejects.toMatchObject({ code: 'validation-failed' });
  });

  it('[F1] detection: by name, by content, and a .csv that is really binary', () => {
    expect(detectFormat(utf8('a,b\n1,2\n'), 'x.csv')).toEqual({ ok: true, format: 'csv', health: [] });
    expect(detectFormat(utf8('a\tb\n1\t2\n'), 'x.TSV')).toEqual({ ok: true, format: 'csv', health: [] });
    expect(detectFormat(utf8('a,b,c\n1,2,3\n4,5,6\n'), 'export.txt')).toEqual({
      ok: true,
      format: 'csv',
      health: ['named .txt but the content is a delimited table'],
    });
    expect(detectFormat(utf8('Hello, world, again.\nA second line.\nThird, one.\n'), 'n.txt')).toEqual({
      ok: true,
      format: 'txt',
      health: [],
    });
    const binary = Uint8Array.from({ length: 4000 }, (_, i) => (i % 7 === 0 ? 0 : (i * 31) % 256));
    expect(detectFormat(binary, 'data.csv')).toEqual({ ok: false, reason: 'binary content, not text' });
  });

  it('[F23] reads a CSV that Excel in Japan saved in Shift JIS, and reads every chunk back', async () => {
    const rows = Array.from(
      { length: 400 },
      (_, i) => `${i + 1},山田太郎${i},東京都千代田区,${(i + 1) * 1000}円`,
    );
    const bytes = encodeLegacy(`番号,氏名,住所,金額\r\n${rows.join('\r\n')}\r\n`, 'shift_jis');
    const ex = await extractFile(bytes, 'csv', '顧客.csv');
    expect(ex.health).toEqual(['not UTF-8: decoded as Shift JIS (Japanese)']);
    expect(ex.chunks.length).toBeGreaterThan(1);
    expect(ex.chunks[0]?.body).toContain('氏名: 山田太郎0');
    expect(ex.chunks.map((c) => c.body).join('\n')).toContain('住所: 東京都千代田区\n金額: 400000円');
    await expectReadBack(bytes, 'csv', ex);
  });
});
