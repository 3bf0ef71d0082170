/**
 * The app end to end, in Chromium against `brain serve` with a fresh data folder per test: drop documents,
 * index them, ask, follow the citation to the highlighted range; refused files and their reasons; a grid
 * of 10,000 files. Screenshots of each screen land in test-results/screens/.
 */
import { closeSync, ftruncateSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { askInChat, FIXTURES, filesGrid, screenshot, unexpectedProblems } from './support/browser.ts';
import { dropFiles } from './support/drop.ts';
import { brain, freshHome } from './support/serve.ts';
import { cleanup, start } from './support/session.ts';

const DOCS = [
  path.join(FIXTURES, 'pdf/pdfjs-tracemonkey.pdf'),
  path.join(FIXTURES, 'docx/tika-testWORD_features.docx'),
  path.join(FIXTURES, 'xlsx/unstr-2023-half-year-analyses-by-segment.xlsx'),
  path.join(FIXTURES, 'md/unstr-eng_spa_mult.md'),
];

const grid = filesGrid;

describe('Org Brain in a browser', () => {
  it('adds dropped documents, indexes them, answers with a cited passage and opens the cited range', async () => {
    const { s } = await start();
    const { page } = s;

    // The token left the address bar; the first launch teaches how to start.
    await expect.poll(() => page.url()).not.toContain('token=');
    await page
      .getByRole('heading', { name: 'Drop files here, watch a folder, or load the sample workspace' })
      .waitFor();
    await page.getByText('Semantic search off').waitFor();
    await screenshot(page, '01-files-empty');

    await dropFiles(page, DOCS);
    const report = page.getByRole('dialog', { name: 'Added 4 files' });
    await report.waitFor();
    await expect(report.getByText('4 added')).toBeTruthy();
    await report.getByText('0 refused').waitFor();
    await screenshot(page, '02-add-report');
    await report.getByRole('button', { name: 'Done' }).click();

    const rows = grid(page).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(4);
    await expect.poll(() => grid(page).locator('tbody').getByText('Added', { exact: true }).count()).toBe(4);
    await screenshot(page, '03-files-added');

    await page.getByRole('button', { name: 'Index all' }).click();
    await expect
      .poll(() => grid(page).locator('tbody').getByText('Indexed', { exact: true }).count(), {
        timeout: 90_000,
        interval: 500,
      })
      .toBe(4);

    // Selecting a row opens its dossier on the right, with its outline and text.
    await grid(page).getByText('pdfjs-tracemonkey.pdf').click();
    const dossier = page.getByRole('complementary', { name: 'Dossier' });
    await dossier.getByRole('heading', { name: 'pdfjs-tracemonkey.pdf' }).waitFor();
    await dossier.getByRole('navigation', { name: 'Outline' }).waitFor();
    await screenshot(page, '04-files-indexed-dossier');
    await page.keyboard.press('Escape');
    await expect.poll(() => dossier.count()).toBe(0);

    // Ask in Chat: the answer is the cited passages, with the question's words marked.
    const answer = await askInChat(page, 'What are trace trees?');
    await answer
      .getByText(/^The chat model is off, so here are the \d+ passages? the brain found\.$/)
      .waitFor({ timeout: 30_000 });
    const citation = answer.getByRole('button', { name: /Open citation 1: pdfjs-tracemonkey\.pdf/ });
    await citation.waitFor();
    expect(await answer.locator('mark').count()).toBeGreaterThan(0);
    expect((await answer.locator('mark').first().textContent())?.toLowerCase()).toMatch(/trace|trees/);
    await answer.getByRole('list', { name: 'Memories used' }).waitFor();
    await screenshot(page, '05-chat-answer');

    // The citation opens the dossier on the PDF's cited page, the cited text highlighted on it
    // (docs/FORMATS.md [F15]; e2e/pdf-view.e2e.ts checks where); its text view marks the cited
    // range and scrolls it into view.
    await citation.click();
    const pane = page.getByRole('complementary', { name: 'Dossier' });
    await pane.locator('.pdf-view__mark').first().waitFor({ timeout: 30_000 });
    await screenshot(page, '06-dossier-citation-page');
    await pane.getByRole('button', { name: 'Text', exact: true }).click();
    const cited = pane.locator('mark.cited');
    await cited.waitFor();
    expect((await cited.textContent())?.length ?? 0).toBeGreaterThan(20);
    await expect.poll(() => cited.isVisible()).toBe(true);
    const inView = await cited.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const pane = el.closest('[role="document"]')?.getBoundingClientRect();
      return !!pane && box.bottom > pane.top && box.top < pane.bottom;
    });
    expect(inView).toBe(true);
    await screenshot(page, '06-dossier-citation');

    // Widened dossier from a citation.
    await page.getByRole('button', { name: 'Widen the dossier' }).click();
    await screenshot(page, '07-dossier-wide');
    await page.keyboard.press('Escape');

    // The command palette finds files, passages and commands.
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('combobox', { name: 'Search files, passages and commands' });
    await palette.fill('trace');
    await page
      .getByRole('option', { name: /pdfjs-tracemonkey\.pdf/ })
      .first()
      .waitFor();
    await screenshot(page, '08-palette');
    await page.keyboard.press('Escape');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Activity' }).click();
    await page.getByRole('list', { name: 'Activity timeline' }).waitFor();
    await page.getByText('Details').nth(1).click();
    await screenshot(page, '09-activity');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('switch', { name: 'Index on add' }).waitFor();
    await page.getByRole('button', { name: 'Download model' }).waitFor();
    await screenshot(page, '10-settings');

    // The same answer and dossier in the dark theme (the app follows the OS).
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
    await page
      .getByRole('article', { name: 'Answer' })
      .last()
      .getByRole('button', { name: /Open citation 1:/ })
      .click();
    await page.getByRole('complementary', { name: 'Dossier' }).locator('.pdf-view__mark').first().waitFor();
    await screenshot(page, '14-chat-dossier-dark');

    expect(unexpectedProblems(s.problems)).toEqual([]);
  });

  it('lists refused files with their reasons: an unsupported BMP and a 101 MB file', async () => {
    const dir = freshHome('org-brain-e2e-files-');
    cleanup(() => rmSync(dir, { recursive: true, force: true }));
    // A 1x1 BMP: a picture format Org Brain does not read (PNG, JPEG, TIFF and WebP it reads by OCR).
    const bmp = path.join(dir, 'diagram.bmp');
    writeFileSync(
      bmp,
      Buffer.from(
        'Qk06AAAAAAAAADYAAAAoAAAAAQAAAAEAAAABABgAAAAAAAQAAAAAAAAAAAAAAAAAAAAAAAAA/wAAAA==',
        'base64',
      ),
    );
    const huge = path.join(dir, 'huge-notes.md');
    const fd = openSync(huge, 'w');
    ftruncateSync(fd, 101 * 1024 * 1024);
    closeSync(fd);

    const { s } = await start();
    const { page } = s;
    await page.getByRole('heading', { name: /Drop files here/ }).waitFor();
    await dropFiles(page, [bmp, huge]);
    const report = page.getByRole('dialog', { name: 'Nothing was added' });
    await report.waitFor({ timeout: 60_000 });
    const refused = report.getByRole('region', { name: 'Refused files' });
    await refused.getByText('diagram.bmp').waitFor();
    await refused.getByText('huge-notes.md').waitFor();
    const text = (await refused.textContent()) ?? '';
    expect(text).toMatch(/diagram\.bmp.*(unsupported|not supported|format|type)/is);
    expect(text).toMatch(/huge-notes\.md.*(100 MB|too large|larger|size|limit)/is);
    await report.getByText('2 refused').waitFor();
    await screenshot(page, '11-refused');
    await report.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: /Drop files here/ }).waitFor();

    // A refused upload is answered with an HTTP error status, which Chromium logs; that is expected here.
    expect(unexpectedProblems(s.problems, [/Failed to load resource/])).toEqual([]);
  });

  it('scrolls a grid of 10,000 files to the last one', async () => {
    const home = freshHome();
    const folder = freshHome('org-brain-e2e-10k-');
    cleanup(() => rmSync(folder, { recursive: true, force: true }));
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < 10_000; i++) {
      const n = String(i).padStart(5, '0');
      writeFileSync(path.join(folder, `note-${n}.md`), `# Note ${n}\n\nTiny note number ${i}.\n`);
    }
    await brain(home, ['add', folder, '--json']);

    const { s } = await start(home, 'dark');
    const { page } = s;
    await grid(page).waitFor();
    await page.getByText(/^10,000 files/).waitFor();

    // Sort by name so the last row is known, then jump to the bottom.
    await grid(page).getByRole('button', { name: 'Name' }).click();
    await grid(page).getByText('note-00000.md').waitFor();
    const rendered = await grid(page).locator('tbody tr').count();
    expect(rendered).toBeLessThan(200);
    await screenshot(page, '12-grid-10k-dark');

    await page.locator('.grid').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await grid(page).getByText('note-09999.md').waitFor({ timeout: 20_000 });
    expect(await grid(page).getByText('note-09999.md').isVisible()).toBe(true);
    await screenshot(page, '13-grid-10k-bottom-dark');

    // Keyboard: Home goes back to the first row, shift+End selects everything in between.
    await grid(page).focus();
    await page.keyboard.press('Home');
    await grid(page).getByText('note-00000.md').waitFor();
    await page.keyboard.press('Shift+End');
    await page.getByRole('button', { name: 'Index selected (10,000)' }).waitFor();

    expect(unexpectedProblems(s.problems)).toEqual([]);
  });

  it('loads the sample workspace, then watches a folder and stops watching it after a confirmation', async () => {
    const folder = freshHome('org-brain-e2e-watch-');
    cleanup(() => rmSync(folder, { recursive: true, force: true }));
    writeFileSync(path.join(folder, 'roadmap.md'), '# Roadmap\n\nShip the desktop app in March.\n');
    writeFileSync(path.join(folder, 'team.md'), '# Team\n\nAda owns the indexer.\n');

    const { s } = await start();
    const { page } = s;
    await page.getByRole('button', { name: 'Load sample workspace' }).click();
    const report = page.getByRole('dialog', { name: /^Added \d+ files?$/ });
    await report.waitFor();
    // The sample is indexed as it loads: the report says so instead of offering to index it.
    await report.getByText('indexing starts automatically').waitFor();
    expect(await report.getByRole('button', { name: /added files? now/ }).count()).toBe(0);
    await report.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => grid(page).locator('tbody tr').count()).toBeGreaterThan(0);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Watch a folder…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Watch a folder' });
    await dialog.getByRole('textbox', { name: 'Folder path' }).fill(folder);
    await screenshot(page, '15-watch-dialog');
    await dialog.getByRole('button', { name: 'Watch folder' }).click();
    const list = page.getByRole('list', { name: 'Watched folders' });
    await list.getByText(folder).waitFor();
    await expect.poll(async () => (await list.textContent()) ?? '', { timeout: 20_000 }).toMatch(/2 files/);
    await screenshot(page, '16-settings-watching');

    await list.getByRole('button', { name: `Stop watching ${folder}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Stop watching this folder?' });
    await confirm.waitFor();
    await screenshot(page, '17-confirm-unwatch');
    await confirm.getByRole('button', { name: 'Stop watching' }).click();
    await page.getByText('No folders watched yet.').waitFor();

    expect(unexpectedProblems(s.problems)).toEqual([]);
  });

  it('removes a file from the grid by keyboard after a confirmation, and says which facts and pages went with it', async () => {
    const home = freshHome();
    const folder = freshHome('org-brain-e2e-remove-');
    cleanup(() => rmSync(folder, { recursive: true, force: true }));
    writeFileSync(path.join(folder, 'hooli.md'), '# Hooli\n\nHooli builds phones.\n');
    writeFileSync(path.join(folder, 'roadmap.md'), '# Roadmap\n\nShip the desktop app in March.\n');
    const added = JSON.parse(await brain(home, ['add', folder, '--json'])) as {
      added: { id: string; label: string }[];
    };
    await brain(home, ['index']);
    const hooli = added.added.find((a) => a.label === 'hooli.md')?.id ?? '';
    await brain(home, [
      'fact',
      'add',
      'Hooli',
      'Hooli builds phones.',
      '--kind',
      'company',
      '--item',
      hooli,
      '--quote',
      'Hooli builds phones.',
    ]);

    const { s } = await start(home);
    const { page } = s;
    await grid(page).getByText('roadmap.md').waitFor();
    await grid(page).getByRole('button', { name: 'Name' }).click();
    await grid(page).focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Delete');
    const confirm = page.getByRole('alertdialog', { name: 'Remove hooli.md?' });
    await confirm.getByText(/Search and chat will no longer find it/).waitFor();
    await screenshot(page, '19-confirm-remove');
    // The focus starts on Cancel: Enter and Esc change nothing; Delete asks again, Tab goes to Remove
    // and Enter confirms.
    expect(
      await confirm
        .getByRole('button', { name: 'Cancel' })
        .evaluate((el) => el === el.ownerDocument.activeElement),
    ).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => confirm.count()).toBe(0);
    await page.keyboard.press('Delete');
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => confirm.count()).toBe(0);
    await page.keyboard.press('Delete');
    await confirm.waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');

    const result = page.getByRole('dialog', { name: 'Removed hooli.md' });
    await result.getByText('1 fact stopped being current.').waitFor({ timeout: 20_000 });
    await result.getByText('Hooli', { exact: true }).waitFor();
    await screenshot(page, '20-removed');
    await page.keyboard.press('Enter');
    await expect.poll(() => result.count()).toBe(0);
    await expect.poll(() => grid(page).locator('tbody tr').count()).toBe(1);
    await grid(page).getByText('roadmap.md').waitFor();
    expect(await grid(page).evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(unexpectedProblems(s.problems)).toEqual([]);
  });

  it('keeps the keyboard on the grid after a click on a row: arrows, Enter, I and Delete go on from it', async () => {
    const home = freshHome();
    const folder = freshHome('org-brain-e2e-click-');
    cleanup(() => rmSync(folder, { recursive: true, force: true }));
    // More rows than the window shows: the box around the grid scrolls, and so can take the focus.
    const names = ['alpha', 'beta', 'gamma', ...Array.from({ length: 40 }, (_, i) => `zeta-${i + 10}`)];
    for (const name of names)
      writeFileSync(path.join(folder, `${name}.md`), `# ${name}\n\nThe ${name} note.\n`);
    await brain(home, ['add', folder, '--json']);

    const { s } = await start(home);
    const { page } = s;
    await page.getByText(/^43 files/).waitFor();
    await grid(page).getByRole('button', { name: 'Name' }).click();
    // No grid(page).focus() here: the click on the row is all a person does.
    await grid(page).getByText('alpha.md').click();
    const dossier = page.getByRole('complementary', { name: 'Dossier' });
    await dossier.getByRole('heading', { name: 'alpha.md' }).waitFor();
    expect(await grid(page).evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);

    await page.keyboard.press('ArrowDown');
    await expect.poll(() => grid(page).getAttribute('aria-activedescendant')).toBe('file-row-1');
    const beta = grid(page).locator('tbody tr', { hasText: 'beta.md' });
    await expect.poll(() => beta.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await dossier.getByRole('heading', { name: 'beta.md' }).waitFor();
    await page.keyboard.press('i');
    await beta.getByText('Indexed', { exact: true }).waitFor({ timeout: 60_000 });
    await page.keyboard.press('Delete');
    const confirm = page.getByRole('alertdialog', { name: 'Remove beta.md?' });
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => confirm.count()).toBe(0);
    await grid(page).getByText('beta.md').waitFor();

    expect(unexpectedProblems(s.problems)).toEqual([]);
  });

  it('shows why a file failed to index, in the grid and in its dossier, driven by the keyboard', async () => {
    const { s } = await start();
    const { page } = s;
    await page.getByRole('heading', { name: /Drop files here/ }).waitFor();
    await dropFiles(page, [
      path.join(FIXTURES, 'pdf/pypdf-crazyones-encrypted-256.pdf'),
      path.join(FIXTURES, 'pdf/pdfjs-scan-bad.pdf'),
    ]);
    const report = page.getByRole('dialog', { name: 'Added 2 files' });
    await report.getByRole('button', { name: /Index 2 added files now/ }).click();
    // A file that needs a password offers it in its row (docs/FORMATS.md [F11]; e2e/file.e2e.ts unlocks one).
    const failed = grid(page).getByRole('button', {
      name: 'Enter password for pypdf-crazyones-encrypted-256.pdf',
    });
    await failed.waitFor({ timeout: 60_000 });
    await expect
      .poll(() => grid(page).locator('tbody').getByText('Indexed', { exact: true }).count(), {
        timeout: 60_000,
      })
      .toBe(1);

    // Keyboard only: sort by name, move to the encrypted file, open its dossier with Enter.
    await grid(page).getByRole('button', { name: 'Name' }).click();
    await grid(page).focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const dossier = page.getByRole('complementary', { name: 'Dossier' });
    await dossier.getByRole('heading', { name: 'pypdf-crazyones-encrypted-256.pdf' }).waitFor();
    await dossier
      .getByRole('note')
      .getByText(/password/i)
      .waitFor();
    await failed.focus();
    await page.getByRole('tooltip').first().waitFor();
    await screenshot(page, '18-failed-file');
    await page.keyboard.press('Escape');

    expect(unexpectedProblems(s.problems)).toEqual([]);
  });
});
