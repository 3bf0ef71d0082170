/**
 * Password-protected files end to end (docs/FORMATS.md [F11]-[F14]), in Chromium against `brain
 * serve`: dropped encrypted files wait for their password in their rows; a wrong one says "Wrong
 * password" there; the right one (the non-ASCII R5 PDF's 'pässwört' too) indexes the file, whose text
 * the dossier then shows and Chat finds. Screenshots land in test-results/screens/.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { askInChat, FIXTURES, filesGrid, screenshot, unexpectedProblems } from './support/browser.ts';
import { dropFiles } from './support/drop.ts';
import { start } from './support/session.ts';

const PDF = 'pdfjs-issue21579.pdf';
const DOCX = 'tika-testWORD_protected_passtika.docx';

const grid = filesGrid;

describe('password-protected files in a browser', () => {
  it('asks for the password in the row, says when it is wrong, and indexes with the right one', async () => {
    const { s } = await start();
    const { page } = s;
    await page.getByRole('heading', { name: /Drop files here/ }).waitFor();
    await dropFiles(page, [path.join(FIXTURES, 'pdf', PDF), path.join(FIXTURES, 'docx', DOCX)]);
    const report = page.getByRole('dialog', { name: 'Added 2 files' });
    await report.getByRole('button', { name: /Index 2 added files now/ }).click();

    const enterPdf = grid(page).getByRole('button', { name: `Enter password for ${PDF}` });
    await enterPdf.waitFor({ timeout: 60_000 });
    await grid(page)
      .getByRole('button', { name: `Enter password for ${DOCX}` })
      .waitFor({ timeout: 60_000 });
    await screenshot(page, '30-needs-password');

    // The mouse: open the form, a wrong password, then the right one with Enter.
    await enterPdf.click();
    const field = grid(page).getByLabel(`Password for ${PDF}`, { exact: true });
    await field.waitFor();
    expect(await field.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await field.fill('passwort');
    await grid(page).getByRole('button', { name: 'Unlock' }).click();
    await grid(page).getByText('Wrong password').waitFor();
    expect(await field.inputValue()).toBe('');
    await screenshot(page, '31-wrong-password');
    await field.fill('pässwört');
    await field.press('Enter');
    await page.getByText(`Unlocked ${PDF}: indexed, 1 section`).waitFor({ timeout: 60_000 });
    await expect
      .poll(() => grid(page).locator('tbody').getByText('Indexed', { exact: true }).count())
      .toBe(1);
    await expect.poll(() => grid(page).getByLabel(`Password for ${PDF}`, { exact: true }).count()).toBe(0);

    // The keyboard: the cursor onto the Word document, U, Escape cancels, U again, Enter unlocks.
    await grid(page).getByRole('button', { name: 'Name' }).click();
    await grid(page).focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('u');
    const docField = grid(page).getByLabel(`Password for ${DOCX}`, { exact: true });
    await docField.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => docField.count()).toBe(0);
    await page.keyboard.press('u');
    await docField.waitFor();
    await page.keyboard.type('tika');
    await page.keyboard.press('Enter');
    await page.getByText(`Unlocked ${DOCX}: indexed, 1 section`).waitFor({ timeout: 60_000 });
    await expect
      .poll(() => grid(page).locator('tbody').getByText('Indexed', { exact: true }).count())
      .toBe(2);

    // Its text, read from what was indexed (the password is not kept: [F13]), and its note ([F14]).
    await grid(page).getByText(PDF).click();
    const dossier = page.getByRole('complementary', { name: 'Dossier' });
    await dossier.getByRole('heading', { name: PDF }).waitFor();
    await dossier
      .getByText(/decryption succeeded/)
      .first()
      .waitFor();
    await screenshot(page, '32-unlocked-dossier');
    await page.keyboard.press('Escape');

    const answer = await askInChat(page, 'encrypted Word 2007 File');
    await answer
      .getByRole('button', { name: new RegExp(`Open citation 1: ${DOCX.replace(/\./g, '\\.')}`) })
      .waitFor({
        timeout: 30_000,
      });
    // The wrong password's answer is a 422 (refused), which Chromium logs as a failed resource.
    expect(unexpectedProblems(s.problems, [/status of 422/])).toEqual([]);
  });
});
