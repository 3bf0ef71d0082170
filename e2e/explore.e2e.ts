/**
 * What a new user met exploring the app in Chromium against `brain serve`, kept as tests: the window
 * made small (900 × 600) with failed files in the status bar; the Graph used from the keyboard only.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, screenshot, unexpectedProblems } from './support/browser.ts';
import { openGraph } from './support/graph.ts';
import { brain, freshHome } from './support/serve.ts';
import { cleanup, start } from './support/session.ts';

/** A data folder with one good note and two files that fail to index (a corrupt PDF and spreadsheet). */
async function workspaceWithFailures(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'org-brain-e2e-explore-'));
  cleanup(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'handbook.md'), '# Handbook\n\nDoors open at 8:00.\n');
  copyFileSync(path.join(FIXTURES, 'pdf', 'pdfjs-bug1020226.pdf'), path.join(dir, 'corrupt.pdf'));
  copyFileSync(path.join(FIXTURES, 'xlsx', 'calamine-issue252.xlsx'), path.join(dir, 'broken.xlsx'));
  const home = freshHome();
  await brain(home, ['add', dir]);
  await brain(home, ['index']).catch(() => undefined);
  return home;
}

/** Status bar items whose content paints outside their own box (over the next item). */
const OVERFLOWING_ITEMS = `(() => Array.from(document.querySelectorAll('.statusbar__item'))
  .filter((el) => getComputedStyle(el).overflow === 'visible' && el.scrollWidth > el.clientWidth + 1)
  .map((el) => el.textContent))()`;

describe('a small window', () => {
  it('at 900 × 600 the status bar shows the whole queue text, and no item runs over the next', async () => {
    const home = await workspaceWithFailures();
    const { s } = await start(home);
    const { page } = s;
    await page.setViewportSize({ width: 900, height: 600 });
    const queue = page.getByRole('status', { name: 'Indexing queue' });
    await queue.getByText(/2 failed/).waitFor({ timeout: 30_000 });
    await page.getByText('Semantic search off').first().waitFor();
    await screenshot(page, 'explore-01-small-status-bar');

    expect(await page.evaluate(OVERFLOWING_ITEMS)).toEqual([]);
    // The queue's words are all in view: its box is as wide as its text.
    const clipped = await queue.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    expect(clipped).toBe(false);
    expect(unexpectedProblems(s.problems)).toEqual([]);
  });
});

describe('the Graph from the keyboard', () => {
  it('finds a node with the search box and opens its dossier without the mouse', async () => {
    const home = await workspaceWithFailures();
    const { s } = await start(home);
    const { page } = s;
    await openGraph(page);
    const search = page.getByRole('combobox', { name: 'Find a node' });
    await search.focus();
    await page.keyboard.type('handbook');
    await page.getByRole('option', { name: /handbook\.md/ }).waitFor();
    await page.keyboard.press('Enter');
    // The found node is selected: one Tab on, its dossier opens with Enter.
    await page.keyboard.press('Tab');
    const open = page.getByRole('button', { name: 'Open handbook.md' });
    expect(
      await open.evaluate((el) => el === el.ownerDocument.activeElement, undefined, { timeout: 5_000 }),
    ).toBe(true);
    await page.keyboard.press('Enter');
    const dossier = page.getByRole('complementary', { name: 'Dossier' });
    await dossier.getByRole('heading', { name: 'handbook.md' }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'explore-02-graph-keyboard-dossier');
    expect(unexpectedProblems(s.problems)).toEqual([]);
  });
});

describe('Esc in a dialog over the dossier', () => {
  it('closes only the dialog: the dossier stays, and the focus goes back to what opened the dialog', async () => {
    const home = await workspaceWithFailures();
    const { s } = await start(home);
    const { page } = s;
    await page.getByRole('grid', { name: 'Files' }).getByText('handbook.md').click();
    const dossier = page.getByRole('complementary', { name: 'Dossier' });
    await dossier.getByRole('heading', { name: 'handbook.md' }).waitFor();
    const remove = dossier.getByRole('button', { name: /^Remove/ });
    await remove.focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog', { name: 'Remove handbook.md?' });
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => confirm.count()).toBe(0);
    // Give a wrongly closing dossier the time to go.
    await page.waitForTimeout(300);
    expect(await dossier.count()).toBe(1);
    await screenshot(page, 'explore-03-esc-dialog-over-dossier');
    expect(await remove.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    // A second Esc, with no dialog open, closes the dossier.
    await page.keyboard.press('Escape');
    await expect.poll(() => dossier.count()).toBe(0);
    expect(unexpectedProblems(s.problems)).toEqual([]);
  });
});
