/**
 * Password-protected files through the path indexing uses (extractFile and its worker), per format
 * and per failure (docs/FORMATS.md [F11]-[F13]): no password gives the "needs a password" reason, a
 * wrong one says so, the right one reads the text; decrypted Office files pass the zip-bomb checks.
 */
import officeCrypto from 'officecrypto-tool';
import { afterAll, describe, expect, it } from 'vitest';
import { NEEDS_PASSWORD, needsPassword, UNLOCKED_NOTE } from '#shared/password.ts';
import { buildDocx, buildXlsx } from '../../../test/ingest-helpers/build-office.ts';
import { buildPdf } from '../../../test/ingest-helpers/build-pdf.ts';
import { buildPptx } from '../../../test/ingest-helpers/build-pptx.ts';
import { buildEncryptedPdf } from '../../../test/ingest-helpers/encrypt-pdf.ts';
import { withLyingEntry } from '../../../test/ingest-helpers/zip-bomb.ts';
import { closeIngestWorkers, detectFormat, extractFile, readLocator, readWholeText } from './index.ts';
import { pdfPasswords } from './pdf.ts';

afterAll(() => closeIngestWorkers());

async function encrypt(zip: Uint8Array, password: string): Promise<Uint8Array> {
  return new Uint8Array(await officeCrypto.encrypt(Buffer.from(zip), { password }));
}

const refusal = (message: string | RegExp) => ({ code: 'refused', message });

describe('[F12] PDF with a password', () => {
  for (const password of ['abc', 'pässwört', '    ']) {
    it(`opens with ${JSON.stringify(password)} only`, async () => {
      const bytes = buildEncryptedPdf([['The quokka budget is 42.'], ['Page two.']], password);
      expect(detectFormat(bytes, 'report.pdf')).toEqual({ ok: true, format: 'pdf', health: [] });
      await expect(extractFile(bytes, 'pdf', 'report.pdf')).rejects.toMatchObject(
        refusal(/^password-protected PDF: enter its password/),
      );
      await expect(extractFile(bytes, 'pdf', 'report.pdf', { password: 'not it' })).rejects.toMatchObject(
        refusal('wrong password for report.pdf'),
      );
      const got = await extractFile(bytes, 'pdf', 'report.pdf', { password });
      expect(got.chunks.map((c) => c.body)).toEqual(['The quokka budget is 42.', 'Page two.']);
      expect(got.health).toContain(UNLOCKED_NOTE);
      // Nothing the password opened is kept for a read without it.
      const locator = got.chunks[0]!.locator;
      await expect(readLocator(bytes, 'pdf', locator)).rejects.toMatchObject(refusal(/^password-protected/));
      await expect(readWholeText(bytes, 'pdf')).rejects.toMatchObject(refusal(/^password-protected/));
      await expect(extractFile(bytes, 'pdf', 'report.pdf')).rejects.toMatchObject(
        refusal(/^password-protected/),
      );
    });
  }

  it('a password given to a PDF that needs none is not used, and the PDF opens', async () => {
    for (const bytes of [buildPdf([['Open to all.']]), buildEncryptedPdf([['Open to all.']], '')]) {
      const got = await extractFile(bytes, 'pdf', 'open.pdf', { password: 'spare' });
      expect(got.chunks.map((c) => c.body)).toEqual(['Open to all.']);
      expect(got.health).not.toContain(UNLOCKED_NOTE);
    }
  });

  it('tries a non-ASCII password as its UTF-8 bytes too (the R5/R6 work-around)', () => {
    expect(pdfPasswords('abc')).toEqual(['abc']);
    expect(pdfPasswords('pässwört')).toEqual(['pässwört', 'pÃ¤sswÃ¶rt']);
  });
});

describe('[F11] [F12] Office files with a password', () => {
  const cases = [
    {
      format: 'docx' as const,
      name: 'plan.docx',
      what: 'Word document',
      make: () => buildDocx(['The wombat plan ships in May.']),
      text: 'The wombat plan ships in May.',
    },
    {
      format: 'xlsx' as const,
      name: 'budget.xlsx',
      what: 'Excel workbook',
      make: () =>
        buildXlsx([
          {
            name: 'Costs',
            rows: [
              ['Item', 'Cost'],
              ['Numbat feed', 12],
            ],
          },
        ]),
      text: 'Numbat feed | 12',
    },
    {
      format: 'pptx' as const,
      name: 'deck.pptx',
      what: 'PowerPoint presentation',
      make: () => buildPptx([{ title: 'Bilby launch', body: ['Launch on Friday.'] }]),
      text: 'Launch on Friday.',
    },
  ];
  for (const c of cases) {
    it(`${c.format}: needs the password, refuses a wrong one, reads with the right one`, async () => {
      const bytes = await encrypt(await c.make(), 'hunter2 secret');
      expect(detectFormat(bytes, c.name)).toEqual({ ok: true, format: c.format, health: [] });
      const none = extractFile(bytes, c.format, c.name);
      await expect(none).rejects.toMatchObject(
        refusal(
          `${NEEDS_PASSWORD} ${c.what}: enter its password to index it (it is used once and never kept)`,
        ),
      );
      await expect(extractFile(bytes, c.format, c.name, { password: 'hunter2' })).rejects.toMatchObject(
        refusal(`wrong password for ${c.name}`),
      );
      const got = await extractFile(bytes, c.format, c.name, { password: 'hunter2 secret' });
      expect(got.chunks.map((ch) => ch.body).join('\n')).toContain(c.text);
      expect(got.health[0]).toBe(UNLOCKED_NOTE);
      await expect(readLocator(bytes, c.format, got.chunks[0]!.locator)).rejects.toSatisfy((e: Error) =>
        needsPassword(e.message),
      );
    });
  }

  it("[F20] a workbook encrypted with Excel's default password opens with no prompt, and reads back", async () => {
    const bytes = await encrypt(await cases[1]!.make(), 'VelvetSweatshop');
    const got = await extractFile(bytes, 'xlsx', 'readonly.xlsx');
    expect(got.chunks.map((ch) => ch.body).join('\n')).toContain('Numbat feed | 12');
    expect(got.health).not.toContain(UNLOCKED_NOTE);
    expect(await readLocator(bytes, 'xlsx', got.chunks[0]!.locator)).toBe(got.chunks[0]!.body);
    // Only Excel uses it: a Word document encrypted with the same word still asks.
    const doc = await encrypt(await cases[0]!.make(), 'VelvetSweatshop');
    await expect(extractFile(doc, 'docx', 'plan.docx')).rejects.toMatchObject(
      refusal(/^password-protected Word/),
    );
  });

  it('a decrypted archive passes the same zip-bomb checks as any other ([Z1])', async () => {
    const bomb = await withLyingEntry(await buildDocx(['x']), 'word/document.xml', 200 * 1024 * 1024);
    const bytes = await encrypt(bomb, 'pw');
    await expect(extractFile(bytes, 'docx', 'bomb.docx', { password: 'pw' })).rejects.toMatchObject(
      refusal(/^looks like a zip bomb/),
    );
  });

  it('an OLE file that is not an encrypted package, or one whose name says no kind, is refused', async () => {
    const bytes = await encrypt(await buildDocx(['x']), 'pw');
    expect(detectFormat(bytes, 'secret.bin')).toEqual({
      ok: false,
      reason:
        'a password-protected Office document named .bin: rename it .docx, .xlsx or .pptx to say which it is',
    });
    const cfb = Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    expect(detectFormat(cfb, 'old.docx')).toMatchObject({
      ok: false,
      reason: /^an old binary Office document/,
    });
  });
});
