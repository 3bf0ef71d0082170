/**
 * The Files screen as tiles, in Chromium against `brain serve`: real files of several kinds; the switch, as many tiles to a line as the window fits (fewer once
 * it narrows, none overlapping), the keyboard in two directions, the dossier, and the view kept
 * after a reload. Screenshots land in test-results/screens/.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FIXTURES, screenshot, unexpectedProblems } from './support/browser.ts';
import { brain, freshHome } from './support/serve.ts';
import { start } from './support/session.ts';

const FILES = [
  'pdf/pdfjs-tracemonkey.pdf',
  'pdf/pypdf-crazyones-encrypted-256.pdf',
  'docx/tika-testWORD_features.docx',
  'xlsx/unstr-2023-half-year-analyses-by-segment.xlsx',
  'md/unstr-eng_spa_mult.md',
];

const tiles = (page: Page) => page.getByRole('grid', { name: 'Files' });

/** Each tile's box, in the order of the grid. */
async function boxes(page: Page) {
  return tiles(page)
    .locator('td.tile')
    .evaluateAll((cells) =>
      cells.map((c) => {
        const r = c.getBoundingClientRect();
        return { x: r.x, y: r.y, w: r.width, h: r.height };
      }),
    );
}

const overlap = (a: { x: number; y: number; w: number; h: number }, b: typeof a) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe('Files as tiles', () => {
  it('switches to tiles, moves by file and by line, opens the dossier, reflows when narrow and stays after a reload', async () => {
    const home = freshHome();
    const folder = path.join(home, 'drop');
    mkdirSync(folder);
    // Twelve files: the five fixtures and copies, so there are two full lines and a part.
    for (let i = 0; i < 12; i++) {
      const from = FILES[i % FILES.length] as string;
      const name = i < FILES.length ? path.basename(from) : `copy-${i}-${path.basename(from)}`;
      copyFileSync(path.join(FIXTURES, from), path.join(folder, name));
    }
    await brain(home, ['add', folder, '--json']);
    const { s } = await start(home);
    const { page } = s;

    await page.getByRole('button', { name: 'Tiles view' }).click();
    const grid = tiles(page);
    await grid.getByText('pdfjs-tracemonkey.pdf', { exact: true }).waitFor();
    await expect.poll(() => grid.locator('td.tile').count()).toBe(12);
    const columns = Number(await grid.getAttribute('aria-colcount'));
    expect(columns).toBeGreaterThanOrEqual(4);
    const wide = await boxes(page);
    // A line holds `columns` tiles side by side; the next line starts below it.
    expect(new Set(wide.slice(0, columns).map((b) => Math.round(b.y))).size).toBe(1);
    expect(wide[columns]?.y).toBeGreaterThan((wide[0]?.y ?? 0) + (wide[0]?.h ?? 0));
    for (let i = 0; i < wide.length; i++)
      for (let j = i + 1; j < wide.length; j++) expect(overlap(wide[i]!, wide[j]!)).toBe(false);
    await screenshot(page, 'tiles-01-wide');

    await grid.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    expect(await grid.getAttribute('aria-activedescendant')).toBe(`file-tile-${1 + columns}`);
    await page.keyboard.press('Enter');
    const dossier = page.getByRole('complementary', { name: 'Dossier' });
    await dossier.waitFor();
    await screenshot(page, 'tiles-02-dossier');
    await page.keyboard.press('Escape');
    await expect.poll(() => dossier.count()).toBe(0);

    // A narrow window: fewer tiles to a line, none overlapping or cut off on the right.
    await page.setViewportSize({ width: 900, height: 600 });
    await expect.poll(async () => Number(await grid.getAttribute('aria-colcount'))).toBeLessThan(columns);
    const narrow = await boxes(page);
    const right = page.viewportSize()?.width ?? 900;
    for (const b of narrow) expect(b.x + b.w).toBeLessThanOrEqual(right);
    for (let i = 0; i < narrow.length; i++)
      for (let j = i + 1; j < narrow.length; j++) expect(overlap(narrow[i]!, narrow[j]!)).toBe(false);
    await screenshot(page, 'tiles-03-narrow');

    await page.reload();
    await tiles(page).getByText('pdfjs-tracemonkey.pdf', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Tiles view' }).getAttribute('aria-pressed')).toBe('true');
    expect(await tiles(page).locator('td.tile').count()).toBe(12);
    expect(unexpectedProblems(s.problems)).toEqual([]);
  });
});
