/**
 * A PDF citation on its page ([F15] in docs/FORMATS.md), in Chromium against `brain serve`: a real
 * three-page PDF (test/ingest-helpers/build-pdf.ts: Helvetica 10 pt, lines 14 pt apart from a first
 * baseline at (40, 760)) is added and indexed, Chat cites its page 2, and the citation opens the
 * page drawn by pdf.js with the cited text highlighted where the PDF draws it: the highlight's box
 * matches the lines' PDF coordinates, and the screenshot inside it holds ink over the highlight's
 * yellow while the page below the text is blank paper. Then page navigation, zoom and the text
 * view; and bytes that cannot be drawn give the error with the text view still there.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { buildPdf } from '../test/ingest-helpers/build-pdf.ts';
import { buildScanPdf } from '../test/ingest-helpers/build-scan-pdf.ts';
import { screenshot, unexpectedProblems } from './support/browser.ts';
import { brain, freshHome } from './support/serve.ts';
import { cleanup, start } from './support/session.ts';

const PAGE_2 = [
  'Quarterly ferry report: the harbour crossing.',
  'The zephyr timetable moves to hourly sailings.',
  'Tickets for the zephyr crossing are sold on board.',
];
const PAGES = [
  ['Annual report of the ferry company.', 'Contents: crossings, tickets, staff.'],
  PAGE_2,
  ['Staff rota for the winter.', 'Two captains share the night crossings.'],
];
/** build-pdf.ts's page and text: US Letter, Helvetica 10 pt, baselines 760, 746, 732 … */
const PAGE_W = 612;
const PAGE_H = 792;
const X = 40;
const FIRST_BASELINE = 760;
const LEADING = 14;
const SIZE = 10;

/** A folder with these files, added and indexed through the CLI before the app starts. */
async function indexed(files: Record<string, Uint8Array>): Promise<string> {
  const home = freshHome();
  const root = freshHome('org-brain-pdf-');
  const folder = path.join(root, 'docs');
  mkdirSync(folder, { recursive: true });
  cleanup(() => rmSync(root, { recursive: true, force: true }));
  for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(folder, name), bytes);
  await brain(home, ['add', folder, '--json']);
  await brain(home, ['index']);
  return home;
}

const indexedReport = () => indexed({ 'report.pdf': buildPdf(PAGES) });

/** Asks Chat and opens the first citation, of `file` page 2 (the model is off: the passages answer). */
async function openPage2Citation(
  page: Page,
  question = 'zephyr timetable sailings',
  file = 'report.pdf',
): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill(question);
  await message.press('Enter');
  const answer = page.getByRole('article', { name: 'Answer' }).last();
  const citation = answer.getByRole('button', { name: `Open citation 1: ${file} · p. 2`, exact: false });
  await citation.waitFor({ timeout: 30_000 });
  await citation.click();
  return page.getByRole('complementary', { name: 'Dossier' });
}

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return box;
}

/** Pixels of a screenshot of `clip`: how many are ink (dark), highlight (yellow) or paper (white). */
async function pixelsIn(
  page: Page,
  clip: Box,
): Promise<{ ink: number; yellow: number; white: number; all: number }> {
  const png = await page.screenshot({ clip, animations: 'disabled' });
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let ink = 0;
  let yellow = 0;
  let white = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const [r = 0, g = 0, b = 0] = [data[i], data[i + 1], data[i + 2]];
    if (r < 150 && g < 150 && b < 150) ink++;
    else if (r > 200 && g > 180 && b < 190 && r - b > 40) yellow++;
    else if (r > 245 && g > 245 && b > 245) white++;
  }
  return { ink, yellow, white, all: data.length / info.channels };
}

describe('PDF citations on the page', () => {
  it('opens a page 2 citation on page 2 with the cited lines highlighted where they are drawn', async () => {
    const { s } = await start(await indexedReport());
    const { page } = s;
    const dossier = await openPage2Citation(page);

    const canvas = dossier.getByRole('img', { name: 'Page 2 of 3, report.pdf' });
    await canvas.waitFor({ timeout: 30_000 });
    const marks = dossier.locator('.pdf-view__mark');
    await marks.first().waitFor({ timeout: 30_000 });
    await expect.poll(() => marks.first().isVisible()).toBe(true);
    expect(await dossier.getByRole('textbox', { name: 'Page number' }).inputValue()).toBe('2');
    await dossier.getByText('of 3').waitFor();
    await screenshot(page, 'pdf-01-citation-page-2');

    // Widened, the page fits the wider pane (and is drawn again, highlight included).
    const narrow = await boxOf(canvas);
    await page.getByRole('button', { name: 'Widen the dossier' }).click();
    await expect.poll(async () => (await boxOf(canvas)).width).toBeGreaterThan(narrow.width * 1.5);
    await expect.poll(() => marks.count()).toBe(PAGE_2.length);
    await screenshot(page, 'pdf-02-citation-wide');

    // The highlight's box, relative to the canvas, is where build-pdf.ts draws page 2's lines.
    const sheet = await boxOf(canvas);
    const scale = sheet.width / PAGE_W;
    expect(sheet.height / scale).toBeCloseTo(PAGE_H, 0);
    const boxes = await Promise.all((await marks.all()).map(boxOf));
    expect(boxes).toHaveLength(PAGE_2.length);
    const tolerance = 2.5;
    boxes.forEach((b, i) => {
      const baseline = FIRST_BASELINE - i * LEADING;
      expect(Math.abs((b.x - sheet.x) / scale - X)).toBeLessThan(tolerance);
      expect(Math.abs((b.y - sheet.y) / scale - (PAGE_H - baseline - 0.8 * SIZE))).toBeLessThan(tolerance);
      expect(Math.abs(b.height / scale - SIZE)).toBeLessThan(tolerance);
      // Helvetica runs about half an em a character: the box is the line's width, not the page's.
      const chars = PAGE_2[i]?.length ?? 0;
      expect(b.width / scale).toBeGreaterThan(chars * SIZE * 0.4);
      expect(b.width / scale).toBeLessThan(chars * SIZE * 0.6);
    });

    // The screenshot: inside the highlight, ink over yellow; below the text, blank paper.
    const first = boxes[0] as Box;
    const inside = await pixelsIn(page, first);
    expect(inside.ink / inside.all).toBeGreaterThan(0.04);
    expect(inside.yellow / inside.all).toBeGreaterThan(0.3);
    const below = await pixelsIn(page, {
      x: first.x,
      y: first.y + 5 * LEADING * scale,
      width: first.width,
      height: first.height,
    });
    expect(below.white / below.all).toBeGreaterThan(0.98);
    expect(below.ink).toBe(0);

    // Next page by button: page 3, nothing highlighted; PageUp brings page 2 and its highlight back.
    await dossier.getByRole('button', { name: 'Next page' }).click();
    await dossier.getByRole('img', { name: 'Page 3 of 3, report.pdf' }).waitFor();
    await expect.poll(() => marks.count()).toBe(0);
    await dossier.locator('.pdf-view__pane').focus();
    await page.keyboard.press('PageUp');
    await canvas.waitFor();
    await expect.poll(() => marks.count()).toBe(PAGE_2.length);

    // Zoom in (the + key): the page and its highlight grow together.
    await page.keyboard.press('+');
    await expect.poll(async () => (await boxOf(canvas)).width).toBeGreaterThan(sheet.width + 10);
    await expect.poll(() => marks.count()).toBe(PAGE_2.length);
    const zoomed = await boxOf(canvas);
    const z = zoomed.width / PAGE_W;
    const firstZoomed = await boxOf(marks.first());
    expect(Math.abs((firstZoomed.x - zoomed.x) / z - X)).toBeLessThan(tolerance);
    await dossier.getByRole('button', { name: 'Fit to width' }).click();
    await expect.poll(async () => Math.round((await boxOf(canvas)).width)).toBe(Math.round(sheet.width));

    // The page number box goes straight to a page.
    const number = dossier.getByRole('textbox', { name: 'Page number' });
    await number.fill('1');
    await number.press('Enter');
    await dossier.getByRole('img', { name: 'Page 1 of 3, report.pdf' }).waitFor();

    // "Text" shows the text view with the cited range marked; "Page view" goes back to the cited page.
    await dossier.getByRole('button', { name: 'Text', exact: true }).click();
    const cited = dossier.locator('mark.cited');
    await cited.waitFor();
    expect(await cited.textContent()).toContain('zephyr timetable');
    await screenshot(page, 'pdf-03-text-view');
    await dossier.getByRole('button', { name: 'Page view' }).click();
    await canvas.waitFor();
    await marks.first().waitFor();

    expect(unexpectedProblems(s.problems)).toEqual([]);
  });

  it('says why a page could not be drawn and keeps the text view', async () => {
    const { s } = await start(await indexedReport());
    const { page } = s;
    // The bytes arrive damaged: the host's real answer with its PDF cut to its first 200 bytes.
    await page.route(/\/api\/invoke\/items\.original$/, async (route) => {
      const real = await route.fetch();
      const body = (await real.json()) as { ok: boolean; data: { base64: string } };
      const cut = Buffer.from(body.data.base64, 'base64').subarray(0, 200).toString('base64');
      await route.fulfill({ response: real, json: { ...body, data: { ...body.data, base64: cut } } });
    });
    const dossier = await openPage2Citation(page);
    const alert = dossier.getByRole('alert');
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toMatch(/^Could not render page 2 of report\.pdf: \S+/);
    await screenshot(page, 'pdf-04-render-error');
    await alert.getByRole('button', { name: 'Show the text' }).click();
    const cited = dossier.locator('mark.cited');
    await cited.waitFor();
    expect(await cited.textContent()).toContain('zephyr timetable');
    // pdf.js reports the damaged file on the console; nothing else may.
    expect(unexpectedProblems(s.problems, [/Invalid PDF|PDF structure|Warning/i])).toEqual([]);
  });

  it("highlights an OCR'd passage by its box on the scanned page", async () => {
    // Page 1 has a text layer; page 2 is only a scan (test/fixtures/ocr/invoice.jpg, 640×200 px),
    // drawn across the page's width, so OCR reads it and its passage carries the box it read.
    const jpeg = new Uint8Array(readFileSync(path.resolve('test/fixtures/ocr/invoice.jpg')));
    const scan = buildScanPdf([
      { jpeg, width: 640, height: 200, layer: 'A cover page with a text layer of its own words' },
      { jpeg, width: 640, height: 200 },
    ]);
    const home = await indexed({ 'scan.pdf': scan });
    const found = JSON.parse(await brain(home, ['search', 'Paid on March', '--json'])) as {
      hits: { citation: { locator: { page: number; bbox?: [number, number, number, number] } } | null }[];
    };
    const locator = found.hits.find((h) => h.citation?.locator.page === 2)?.citation?.locator;
    const bbox = locator?.bbox;
    if (!bbox) throw new Error(`no OCR box in ${JSON.stringify(found.hits)}`);

    const { s } = await start(home);
    const { page } = s;
    const dossier = await openPage2Citation(page, 'Paid on March', 'scan.pdf');
    const canvas = dossier.getByRole('img', { name: 'Page 2 of 2, scan.pdf' });
    await canvas.waitFor({ timeout: 30_000 });
    const marks = dossier.locator('.pdf-view__mark');
    await marks.first().waitFor({ timeout: 30_000 });
    expect(await marks.count()).toBe(1);
    await screenshot(page, 'pdf-05-ocr-box');

    // build-scan-pdf.ts draws the 640 px image over the page's 612 pt width: 612 / 640 pt a pixel.
    const sheet = await boxOf(canvas);
    const scale = sheet.width / PAGE_W;
    const perPixel = PAGE_W / 640;
    const box = await boxOf(marks.first());
    const tolerance = 2.5;
    expect(Math.abs((box.x - sheet.x) / scale - bbox[0] * perPixel)).toBeLessThan(tolerance);
    expect(
      Math.abs((box.y - sheet.y) / scale - bbox[1] * (Math.round((PAGE_W * 200) / 640) / 200)),
    ).toBeLessThan(tolerance);
    expect(Math.abs(box.width / scale - (bbox[2] - bbox[0]) * perPixel)).toBeLessThan(tolerance);
    const inside = await pixelsIn(page, box);
    expect(inside.ink / inside.all).toBeGreaterThan(0.02);
    expect(unexpectedProblems(s.problems)).toEqual([]);
  });
});
