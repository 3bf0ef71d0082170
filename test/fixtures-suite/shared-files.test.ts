/**
 * The engine over real-world files: every file in ../shared/fixtures and the Markdown corpora in
 * ../shared/corpus is added and indexed (or refused / failed with a reason), and every citation
 * reads back exactly the text of its section. Run by `npm run test:fixtures` (and .ci/run).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { Engine } from '#engine/engine.ts';
import { writeSettings } from '#engine/host/settings.ts';
import { closeIngestWorkers } from '#engine/ingest/index.ts';
import { createTestWorkspace, type TestWorkspace } from '#engine/testing/test-engine.ts';

const SHARED = resolve(process.env.BRAIN_SHARED_DIR ?? '../shared');
const FIXTURES = join(SHARED, 'fixtures');
const CORPUS = join(SHARED, 'corpus');
// The formats of docs/FORMATS.md join when the shared fixtures hold a folder of them.
const FORMAT_DIRS = ['md', 'txt', 'pdf', 'docx', 'xlsx', 'csv', 'html', 'pptx'].filter((d) =>
  existsSync(join(FIXTURES, d)),
);

type SectionRow = { id: string; body: string; file_id: string };

async function checkReadBack(engine: Engine, sections: readonly SectionRow[]): Promise<string[]> {
  const problems: string[] = [];
  for (const s of sections) {
    try {
      const read = await engine.read(s.id);
      if (read.text !== s.body) problems.push(`${s.id}: read-back differs from the section text`);
    } catch (err) {
      problems.push(`${s.id}: ${(err as Error).message}`);
    }
  }
  return problems;
}

/** Up to n sections per file, spread over the file, so huge files stay quick to check. */
function sample(engine: Engine, fileId: string, n: number): SectionRow[] {
  const rows = engine.db
    .prepare(
      "SELECT id, body, file_id FROM items WHERE file_id = ? AND storage_kind = 'section' AND retired_at IS NULL ORDER BY ordinal",
    )
    .all(fileId) as SectionRow[];
  if (rows.length <= n) return rows;
  const step = rows.length / n;
  return Array.from({ length: n }, (_, i) => rows[Math.floor(i * step)] as SectionRow);
}

function distinctivePhrase(body: string): string {
  const words = body.match(/[\p{L}]{5,}/gu) ?? [];
  return words.slice(0, 6).join(' ');
}

describe.runIf(existsSync(FIXTURES))('real-world fixtures', () => {
  let ws: TestWorkspace;
  let engine: Engine;
  const outcome = new Map<string, string>();

  beforeAll(async () => {
    ws = createTestWorkspace();
    engine = ws.open({ model: true });
    const paths = FORMAT_DIRS.map((d) => join(FIXTURES, d));
    const added = await engine.add(paths);
    for (const r of added.refused) outcome.set(basename(r.path), `refused: ${r.reason}`);
    const report = await engine.index();
    for (const f of report.indexed) outcome.set(f.label, `indexed: ${f.sections} sections`);
    for (const f of report.failed) outcome.set(f.label, `failed: ${f.reason}`);
    console.log([...outcome].map(([file, what]) => `${file.padEnd(56)} ${what}`).join('\n'));
  }, 900_000);
  afterAll(async () => ws.cleanup());

  it('every fixture is indexed, or refused or failed with a reason', () => {
    const all = FORMAT_DIRS.flatMap((d) => readdirSync(join(FIXTURES, d)));
    for (const name of all) {
      const what = outcome.get(name);
      expect(what, name).toBeDefined();
      if (!what?.startsWith('indexed')) expect(what, name).toMatch(/^(refused|failed): \S.{5,}/);
    }
  });

  it('hostile and protected files fail alone, with the reason named', () => {
    expect(outcome.get('pdfjs-empty_protected.pdf')).toMatch(/^indexed/); // empty password opens
    // Added, waiting for a password (docs/FORMATS.md [F11]); passwords.test.ts opens them.
    expect(outcome.get('sf-libreoffice-writer-password.pdf')).toMatch(/^failed: password-protected PDF/);
    expect(outcome.get('excelize-encryptAES.xlsx')).toMatch(/^failed: password-protected Excel workbook/);
    expect(outcome.get('tika-testWORD_protected_passtika.docx')).toMatch(
      /^failed: password-protected Word document/,
    );
    expect(outcome.get('outline-empty.md')).toMatch(/empty/);
    expect(outcome.get('outline-normal.docx.txt')).toMatch(/^indexed/);
    expect(outcome.get('pdfjs-tracemonkey.pdf')).toMatch(/^indexed/);
    expect(outcome.get('unstr-book-war-and-peace-1225p.txt')).toMatch(/^indexed/);
    expect(outcome.get('unstr-delta-table-single-line.md')).toMatch(/^indexed/);
  });

  /** The section bodies and locators of one fixture, by its file name. */
  function sectionsOf(name: string): { body: string; locator: string }[] {
    return engine.db
      .prepare(
        "SELECT s.body, s.locator FROM items s JOIN items f ON f.id = s.file_id WHERE f.storage_kind = 'file' AND f.label = ? AND s.storage_kind = 'section' AND s.retired_at IS NULL ORDER BY s.ordinal",
      )
      .all(name) as { body: string; locator: string }[];
  }

  it('[F16] DOCX page headers, footers, footnotes and endnotes are read as text (docs/FORMATS.md)', () => {
    const margins = sectionsOf('unstr-docx-hdrftr.docx')
      .map((s) => s.body)
      .join('\n');
    for (const words of ['Main document', 'First header para', 'Last header para', 'para1', 'para2'])
      expect(margins).toContain(words);
    expect(margins).not.toContain('I should not be included'); // a merged-away table cell
    const various = sectionsOf('tika-testWORD_various.docx')
      .map((s) => s.body)
      .join('\n');
    for (const words of ['This is the header text.', 'This is the footer text.', 'This is a footnote.'])
      expect(various).toContain(words);
    for (const name of ['mammoth-footnotes.docx', 'mammoth-endnotes.docx'])
      expect(
        sectionsOf(name)
          .map((s) => s.body)
          .join('\n'),
      ).toContain('A tachyon walks into a bar.');
  });

  it('[F17] CJK PDFs with CID fonts and no ToUnicode read through the packaged CMaps (docs/FORMATS.md)', () => {
    const text = (name: string) =>
      sectionsOf(name)
        .map((s) => s.body)
        .join('\n');
    expect(text('pdfjs-issue16538.pdf')).toContain('マーケットモデル');
    expect(text('pdfjs-vertical.pdf')).toContain('あいうえお');
    expect(text('pdfjs-issue12823.pdf')).toContain('知识库简介');
    expect(text('pypdf-multilang.pdf')).toContain('こんにちは世界');
  });

  it('[F19] a Word document set in ruby is read, base and reading (docs/FORMATS.md)', () => {
    expect(outcome.get('tika-testWORD_phonetic.docx')).toMatch(/^indexed/);
    const text = sectionsOf('tika-testWORD_phonetic.docx')
      .map((s) => s.body)
      .join('\n');
    expect(text).toContain('東京(とうきょう)');
  });

  it('[F22] DOS Cyrillic and EBCDIC text files are read in their encodings (docs/FORMATS.md)', () => {
    expect(outcome.get('tika-russian.cp866.txt')).toMatch(/^indexed/);
    const text = sectionsOf('tika-russian.cp866.txt')
      .map((s) => s.body)
      .join('\n');
    expect(text).toContain('Однажды, в студеную зимнюю пору');
    const ebcdic = sectionsOf('tika-english.cp500.txt')
      .map((s) => s.body)
      .join('\n');
    expect(ebcdic).toContain('IntelliStation POWER');
  });

  it('[R7] Arabic that a PDF gives as presentation forms is found by its letters (docs/RETRIEVAL.md)', async () => {
    const found = await engine.search('العربية', { k: 3, mode: 'keyword' });
    expect(found.hits.map((h) => h.citation?.fileLabel ?? h.label)).toContain('pdfjs-ArabicCIDTrueType.pdf');
  });

  it('[F21] a Word document made of an embedded HTML page is read (docs/FORMATS.md)', () => {
    expect(outcome.get('tika-testAltChunkHTML.docx')).toMatch(/^indexed/);
    const text = sectionsOf('tika-testAltChunkHTML.docx')
      .map((s) => s.body)
      .join('\n');
    expect(text).toContain('Simple paragraph with a');
    expect(text).toContain('ROW 2 | ROW 2');
  });

  it('[F18] a workbook whose inline-string cells hold a cached value is read (docs/FORMATS.md)', () => {
    expect(outcome.get('calamine-inlineStr_with_value.xlsx')).toMatch(/^indexed/);
    const text = sectionsOf('calamine-inlineStr_with_value.xlsx')
      .map((s) => s.body)
      .join('\n');
    for (const words of ['Outline Number', 'Textual Requirement']) expect(text).toContain(words);
  });

  it('[O3] scanned pages without a text layer are read by OCR (docs/OCR.md)', () => {
    const happy = sectionsOf('tika-testOCR.pdf');
    expect(happy.map((s) => s.body).join('\n')).toContain('Happy New Year 2003!');
    expect(JSON.parse(happy[0]?.locator ?? '{}')).toMatchObject({ type: 'pdf', page: 1, ocr: 'eng' });
    const lorem = sectionsOf('unstr-loremipsum-flat.pdf')
      .map((s) => s.body)
      .join('\n');
    for (const words of [
      'Lorem ipsum dolor sit amet',
      'Phasellus ornare quis diam at vestibulum',
      'vehicula convallis',
    ])
      expect(lorem).toContain(words);
    // The workspace reads in English: the Russian form is indexed, but not as Russian ([O7] below).
    expect(outcome.get('pdfjs-issue7229.pdf')).toMatch(/^indexed/);
  });

  it('[O8] a scan lying on its side is read turned upright (the single_table fixture)', () => {
    const table = sectionsOf('unstr-single_table.pdf')
      .map((s) => s.body)
      .join('\n');
    for (const words of ['Base 128', '64,058', 'Base 512']) expect(table).toContain(words);
  });

  it("[O3] a page with an invisible OCR layer keeps it and is not OCR'd again", () => {
    const sections = sectionsOf('pypdf-Seige_of_Vicksburg_Sample_OCR.pdf');
    expect(sections.length).toBeGreaterThan(5);
    for (const s of sections) expect(JSON.parse(s.locator)).not.toHaveProperty('ocr');
  });

  it('every sampled section of every indexed file reads back exactly', async () => {
    const files = engine.db
      .prepare("SELECT id FROM items WHERE storage_kind = 'file' AND indexed = 1")
      .all() as { id: string }[];
    const problems: string[] = [];
    for (const f of files) problems.push(...(await checkReadBack(engine, sample(engine, f.id, 40))));
    expect(problems).toEqual([]);
  }, 1_500_000);

  it('search hits cite ranges that read back the hit text', async () => {
    const probes = engine.db
      .prepare("SELECT body FROM items WHERE storage_kind = 'section' AND retired_at IS NULL ORDER BY rowid")
      .all() as { body: string }[];
    const step = Math.max(1, Math.floor(probes.length / 60));
    let checked = 0;
    for (let i = 0; i < probes.length; i += step) {
      const phrase = distinctivePhrase(probes[i]!.body);
      if (!phrase) continue;
      const result = await engine.search(phrase, { k: 8 });
      expect(result.semantic).toBe(true);
      for (const hit of result.hits.filter((h) => h.storageKind === 'section')) {
        const read = await engine.read(hit.id);
        expect(read.text).toContain(hit.body);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  }, 600_000);
});

describe.runIf(existsSync(join(FIXTURES, 'pdf/pdfjs-issue7229.pdf')))(
  '[O7] the Russian form scan, read in Russian (docs/OCR.md)',
  () => {
    let ws: TestWorkspace;
    afterAll(async () => ws?.cleanup());

    it("is OCR'd with the Russian data the app ships, and found by its Russian words", async () => {
      ws = createTestWorkspace();
      const engine = ws.open();
      // Russian first, English too: the form's title is in both ([O2]).
      writeSettings(engine.db, { ocrLanguages: ['rus', 'eng'] });
      await engine.add([join(FIXTURES, 'pdf/pdfjs-issue7229.pdf')]);
      const report = await engine.index();
      expect(report.failed).toEqual([]);
      const sections = engine.db
        .prepare(
          "SELECT body, locator FROM items WHERE storage_kind = 'section' AND retired_at IS NULL ORDER BY ordinal",
        )
        .all() as { body: string; locator: string }[];
      const text = sections.map((s) => s.body).join('\n');
      // Words a person reads on the two pages (bench/ocr-reference/pdfjs-issue7229.words.txt).
      for (const words of [
        'Диагностическая карта',
        'Регистрационный номер',
        'Оператор технического осмотра',
        'ШЕВРОЛЕ СПАРК',
        'Результаты диагностирования',
        'Certificate of periodic technical inspection',
      ])
        expect(text).toContain(words);
      const pages = new Set(sections.map((s) => JSON.parse(s.locator) as { page: number; ocr: string }));
      expect([...pages].every((l) => l.ocr === 'rus+eng')).toBe(true);
      expect(new Set([...pages].map((l) => l.page))).toEqual(new Set([1, 2]));
      const found = await engine.search('диагностическая карта технического осмотра', { k: 3 });
      expect(found.hits[0]?.citation?.page).toBe(1);
      expect((await engine.read(found.hits[0]!.id)).text).toContain(found.hits[0]?.body);
    }, 300_000);
  },
);

describe.runIf(existsSync(join(FIXTURES, 'pdf/pdfjs-issue12963.pdf')))(
  '[O9] the Russian tax form whose text layer is garbage, read by OCR (docs/OCR.md)',
  () => {
    let ws: TestWorkspace;
    afterAll(async () => ws?.cleanup());

    // Eight scanned pages (the first in colour, the rest black-and-white JBIG2) under a layer of
    // Latin look-alikes; read by OCR in Russian they took 85 s on two cores.
    it('indexes as garbage from its layer, and reads Russian once read by OCR', async () => {
      ws = createTestWorkspace();
      const engine = ws.open();
      writeSettings(engine.db, { ocrLanguages: ['rus'] });
      const [file] = (await engine.add([join(FIXTURES, 'pdf/pdfjs-issue12963.pdf')])).added;
      const id = file!.id;
      await engine.index();
      const sections = () =>
        engine.db
          .prepare(
            "SELECT id, body, locator FROM items WHERE file_id = ? AND storage_kind = 'section' AND retired_at IS NULL ORDER BY ordinal",
          )
          .all(id) as { id: string; body: string; locator: string }[];
      const text = () =>
        sections()
          .map((s) => s.body)
          .join('\n');
      expect(text()).toContain('Hanorosas');
      expect(text()).not.toContain('Налог');

      const answer = await runCommand(memberContext(engine, 'app'), 'files.index', { ids: [id], ocr: true });
      expect(answer).toMatchObject({ reading: [{ id, ocr: true }], failed: [] });
      // Words a person reads on pages 1 and 2, as tesseract reads them in Russian.
      for (const words of [
        'Налоговая декларация по налогу',
        'упрощенной системы налогообложения',
        'Раздел 1.1. Сумма налога',
      ])
        expect(text()).toContain(words);
      expect(text()).not.toContain('Hanorosas');
      const locators = sections().map(
        (s) => JSON.parse(s.locator) as { page: number; ocr: string; forced: boolean },
      );
      expect(locators.every((l) => l.ocr === 'rus' && l.forced === true)).toBe(true);
      expect(new Set(locators.map((l) => l.page))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8]));
      // Read back in a fresh worker: the sections of the first two pages, OCR'd again.
      await closeIngestWorkers();
      const firstPages = sections().filter((s) => (JSON.parse(s.locator) as { page: number }).page <= 2);
      for (const s of firstPages) expect((await engine.read(s.id)).text).toBe(s.body);
      const found = await engine.search('налоговая декларация', { k: 3, mode: 'keyword' });
      expect(found.hits[0]?.citation?.page).toBe(1);
    }, 600_000);
  },
);

describe.runIf(existsSync(CORPUS))('Markdown corpora', () => {
  let ws: TestWorkspace;
  let engine: Engine;
  let dirs: string[] = [];

  beforeAll(async () => {
    ws = createTestWorkspace();
    engine = ws.open();
    dirs = readdirSync(CORPUS, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(CORPUS, d.name));
    for (const bundle of readdirSync(CORPUS).filter((n) => n.endsWith('.git.bundle'))) {
      const target = mkdtempSync(join(tmpdir(), 'brain-corpus-'));
      rmSync(target, { recursive: true });
      execFileSync('git', ['clone', '--quiet', join(CORPUS, bundle), target]);
      dirs.push(target);
    }
    const added = await engine.add(dirs);
    expect(added.added.length).toBeGreaterThan(100);
    await engine.index();
  }, 600_000);
  afterAll(async () => ws.cleanup());

  it('indexes every Markdown file and every section reads back exactly', async () => {
    const status = engine.status();
    expect(status.counts.failed).toBe(0);
    expect(status.counts.notIndexed).toBe(0);
    const sections = engine.db
      .prepare("SELECT id, body, file_id FROM items WHERE storage_kind = 'section' AND retired_at IS NULL")
      .all() as SectionRow[];
    expect(sections.length).toBeGreaterThan(500);
    expect(await checkReadBack(engine, sections)).toEqual([]);
  }, 600_000);

  it('answers questions with citations into the handbook', async () => {
    const result = await engine.search('how many vacation days', { k: 8 });
    expect(result.hits.length).toBeGreaterThan(0);
    for (const hit of result.hits) {
      if (hit.storageKind !== 'section') continue;
      expect((await engine.read(hit.id)).text).toContain(hit.body);
      expect(hit.citation?.lineStart).toBeGreaterThan(0);
    }
  });
});
