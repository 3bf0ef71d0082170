/**
 * The member's data end to end, in Chromium against `brain serve` (docs/PACKAGING.md [N16],
 * [N18]): Settings → Your data exports the workspace to a folder that holds the original files;
 * Settings → Backups backs up, then restores that backup after a confirmation: the window
 * reloads on the restored workspace and says so.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesGrid, screenshot, unexpectedProblems } from './support/browser.ts';
import { brain, freshHome } from './support/serve.ts';
import { cleanup, start } from './support/session.ts';

describe('your data, in a browser', () => {
  it('exports everything to a folder, then restores a backup after a confirmation', async () => {
    const home = freshHome('org-brain-e2e-data-');
    const files = freshHome('org-brain-e2e-data-files-');
    const out = path.join(files, 'exported');
    cleanup(() => {
      rmSync(home, { recursive: true, force: true });
      rmSync(files, { recursive: true, force: true });
    });
    writeFileSync(path.join(files, 'roadmap.md'), '# Roadmap\n\nShip the desktop app in March.\n');
    await brain(home, ['add', path.join(files, 'roadmap.md')]);
    await brain(home, ['index']);

    const { s } = await start(home);
    const { page } = s;
    await expect.poll(() => filesGrid(page).locator('tbody tr').count()).toBe(1);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();

    const data = page.getByRole('region', { name: 'Your data' });
    await data.getByRole('textbox', { name: 'Folder' }).fill(out);
    await data.getByRole('button', { name: 'Export everything' }).click();
    await data
      .getByRole('status')
      .getByText(/Exported 1 files/)
      .waitFor();
    await screenshot(page, '30-settings-exported');
    expect(readdirSync(path.join(out, 'files'))).toContain('roadmap.md');
    expect(readFileSync(path.join(out, 'files', 'roadmap.md'), 'utf8')).toContain('Ship the desktop app');
    expect(existsSync(path.join(out, 'items.jsonl'))).toBe(true);

    const backups = page.getByRole('region', { name: 'Backups' });
    await backups.getByRole('button', { name: 'Back up now' }).click();
    await backups.getByRole('list', { name: 'Backups' }).waitFor();
    await backups
      .getByRole('button', { name: /^Restore the backup of/ })
      .first()
      .click();
    const confirm = page.getByRole('alertdialog', { name: 'Restore this backup?' });
    await confirm.waitFor();
    await screenshot(page, '31-confirm-restore');
    await confirm.getByRole('button', { name: 'Restore', exact: true }).click();
    await page
      .getByText(/^Restored workspace-.*: the workspace is as it was then\.$/)
      .waitFor({ timeout: 30_000 });
    await expect.poll(() => filesGrid(page).locator('tbody tr').count()).toBe(1);
    await screenshot(page, '32-restored');

    expect(unexpectedProblems(s.problems)).toEqual([]);
  });
});
