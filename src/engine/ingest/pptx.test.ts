import { afterAll, describe, expect, it } from 'vitest';
import { describeCitation } from '#shared/citation.ts';
import { buildZip, patchDeclaredSize } from '../../../test/ingest-helpers/build-office.ts';
import { buildPptx } from '../../../test/ingest-helpers/build-pptx.ts';
import { expectReadBack } from '../../../test/ingest-helpers/read-back.ts';
import { closeIngestWorkers, detectFormat, extractFile, readLocator, readWholeText } from './index.ts';

afterAll(() => closeIngestWorkers());

const deck = () =>
  buildPptx([
    { title: 'Quarterly review', body: ['Revenue grew', 'Churn fell'], notes: ['Say thanks to the team'] },
    { title: 'Secret plans', body: ['hiddenword'], hidden: true },
    {
      body: ['No title here'],
      table: [
        ['Region', 'Sales'],
        ['North', '12'],
        ['', ''],
      ],
    },
    { title: 'Long', body: Array.from({ length: 60 }, (_, i) => `Point number ${i} about the roadmap`) },
  ]);

describe('pptx', () => {
  it('[F9] a chunk per slide: titles as headings, body, tables and notes; cited by slide', async () => {
    const bytes = await deck();
    const ex = await extractFile(bytes, 'pptx', 'deck.pptx');
    expect(ex.health).toEqual(['hidden slides skipped: 2', 'tables flattened to text (1)']);
    const [first, third, ...long] = ex.chunks;
    expect(first).toMatchObject({
      key: 'Slide 1: Quarterly review',
      label: 'deck.pptx > Slide 1: Quarterly review',
      body: 'Quarterly review\n\nRevenue grew\n\nChurn fell\n\nNotes:\n\nSay thanks to the team',
      locator: { type: 'pptx', slide: 1, charStart: 0, lineStart: 1 },
    });
    expect(third).toMatchObject({
      label: 'deck.pptx > Slide 3',
      body: 'No title here\n\nRegion | Sales\n\nNorth | 12',
      locator: { type: 'pptx', slide: 3 },
    });
    expect(long.length).toBeGreaterThan(1);
    for (const c of long) expect(c.locator).toMatchObject({ type: 'pptx', slide: 4 });
    expect(ex.chunks.some((c) => c.body.includes('hiddenword') || c.body.includes('slidenumber'))).toBe(
      false,
    );
    await expectReadBack(bytes, 'pptx', ex);
    const whole = await readWholeText(bytes, 'pptx');
    for (const c of ex.chunks)
      expect(whole.slice((c.locator as { charStart: number }).charStart)).toContain(c.body);
    const cite = { itemId: 'i', fileId: 'f', fileLabel: 'deck.pptx', blob: 'b', locator: third!.locator };
    expect(describeCitation(cite)).toBe('deck.pptx, slide 3');
  });

  it('[F9] reads the Fallback of mc:AlternateContent once, not its Choice too', async () => {
    const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';
    const shapeXml = (t: string) =>
      `<p:sp><p:nvSpPr><p:cNvPr id="9" name="x"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:txBody><a:p><a:r><a:t>${t}</a:t></a:r></a:p></p:txBody></p:sp>`;
    const raw = `<mc:AlternateContent xmlns:mc="${MC}"><mc:Choice Requires="p14">${shapeXml('choice text')}</mc:Choice><mc:Fallback>${shapeXml('fallback text')}</mc:Fallback></mc:AlternateContent>`;
    const bytes = await buildPptx([{ title: 'Alt', raw }]);
    const ex = await extractFile(bytes, 'pptx', 'alt.pptx');
    expect(ex.chunks.map((c) => c.body)).toEqual(['Alt\n\nfallback text']);
  });

  it('[F8] detection by content and name; .pptm gets a note; incomplete decks are refused', async () => {
    const bytes = await deck();
    expect(detectFormat(bytes, 'deck.pptx')).toEqual({ ok: true, format: 'pptx', health: [] });
    expect(detectFormat(bytes, 'deck.pptm')).toEqual({
      ok: true,
      format: 'pptx',
      health: ['macro-enabled presentation: macros are ignored'],
    });
    expect(detectFormat(bytes, 'deck.zip')).toEqual({
      ok: true,
      format: 'pptx',
      health: ['named .zip but the content is a PowerPoint presentation'],
    });
    expect(detectFormat(await buildZip({ 'ppt/slides/slide1.xml': '<x/>' }), 'a.pptx')).toEqual({
      ok: false,
      reason: 'an incomplete PowerPoint presentation (ppt/presentation.xml is missing)',
    });
    expect(detectFormat(new TextEncoder().encode('slides'), 'a.pptx')).toEqual({
      ok: false,
      reason: 'named .pptx but the content is not a PowerPoint presentation',
    });
  });

  it('[F10] missing slides and notes are skipped with a note; a broken presentation.xml is refused', async () => {
    const bytes = await buildPptx(
      [{ title: 'One', notes: ['n'] }, { title: 'Two' }],
      ['ppt/slides/slide2.xml', 'ppt/notesSlides/notesSlide1.xml'],
    );
    const ex = await extractFile(bytes, 'pptx', 'd.pptx');
    expect(ex.chunks.map((c) => c.body)).toEqual(['One']);
    expect(ex.health).toEqual(['slides missing or unreadable, skipped: 2']);
    await expectReadBack(bytes, 'pptx', ex);

    const malformed = await buildPptx([{ title: 'Fine' }, { title: 'Bad', raw: '<p:sp><unclosed>' }]);
    const m = await extractFile(malformed, 'pptx', 'm.pptx');
    expect(m.chunks.map((c) => c.body)).toEqual(['Fine']);
    expect(m.health).toEqual(['slides missing or unreadable, skipped: 2']);

    const broken = await buildZip({ 'ppt/presentation.xml': '<p:presentation><unclosed>' });
    await expect(extractFile(broken, 'pptx', 'b.pptx')).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(
        /^corrupt or unreadable PowerPoint presentation: ppt\/presentation.xml: /,
      ),
      details: { file: 'b.pptx' },
    });
  });

  it('[F8][Z1] zip bombs are refused by declared and by counted sizes', async () => {
    const bytes = await deck();
    const declared = patchDeclaredSize(bytes, 'ppt/slides/slide1.xml', 2 ** 31);
    await expect(extractFile(declared, 'pptx', 'x.pptx')).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/^looks like a zip bomb/),
    });
    const lying = patchDeclaredSize(bytes, 'ppt/slides/slide1.xml', 10);
    await expect(extractFile(lying, 'pptx', 'y.pptx')).rejects.toMatchObject({
      code: 'refused',
      message: 'looks like a zip bomb: ppt/slides/slide1.xml inflates past its declared 10 bytes',
    });
  });

  it('refuses a locator outside its slide or of another type', async () => {
    const bytes = await deck();
    await expect(
      readLocator(bytes, 'pptx', {
        type: 'pptx',
        slide: 2,
        charStart: 0,
        charEnd: 5,
        lineStart: 1,
        lineEnd: 1,
      }),
    ).rejects.toMatchObject({ code: 'stale' });
    await expect(
      readLocator(bytes, 'pptx', { type: 'html', charStart: 0, charEnd: 5, lineStart: 1, lineEnd: 1 }),
    ).rejects.toMatchObject({ code: 'validation-failed' });
  });
});
