/**
 * Settings → Backups ([N15] in docs/PACKAGING.md) in the real app shell over a fake engine: the
 * backups are listed, "Back up now" is busy while it runs and the new one shows, a failure shows in
 * the section, and "Restore…" says what happens and gives the command to run with the app closed.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppError } from '#shared/errors.ts';
import { shellAnswers } from '../../test/canned.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';

const backup = (name: string, takenAt: string, size: number) => ({
  name,
  takenAt,
  size,
  restoreCommand: `brain --home /data backups restore ${name}`,
});

function engine(options: { fail?: boolean } = {}) {
  const t = fakeTransport(shellAnswers());
  const backups = [backup('workspace-2026-12-03T09-00-00Z.db', '2026-12-03T09:00:00.000Z', 2_048_000)];
  let release: () => void = () => undefined;
  const view = () => ({ backups: [...backups], folder: '/data/backups', keepDays: 7 });
  t.answer('backups.list', view);
  t.answer('backups.create', async () => {
    await new Promise<void>((r) => {
      release = r;
    });
    if (options.fail)
      throw new AppError('internal', 'The backup failed its check (malformed); it was deleted.');
    const taken = backup('workspace-2026-12-04T10-00-00Z.db', '2026-12-04T10:00:00.000Z', 2_100_000);
    backups.unshift(taken);
    return { ...view(), taken };
  });
  return { t, finish: () => release() };
}

async function openSection(t: ReturnType<typeof fakeTransport>) {
  const view = renderApp(t);
  const rail = await screen.findByRole('navigation', { name: 'Main' });
  await view.user.click(within(rail).getByRole('button', { name: 'Settings' }));
  const section = await screen.findByRole('region', { name: 'Backups' });
  await within(section).findByRole('list', { name: 'Backups' });
  return { ...view, section };
}

describe('Settings → Backups', () => {
  it('lists the backups and backs up now, busy until it is done', async () => {
    const { t, finish } = engine();
    const { user, section } = await openSection(t);
    expect(within(section).getAllByRole('listitem')).toHaveLength(1);
    expect(section.textContent).toContain('workspace-2026-12-03T09-00-00Z.db');
    expect(section.textContent).toContain('kept for 7 days');
    await user.click(within(section).getByRole('button', { name: 'Back up now' }));
    const busy = await within(section).findByRole('button', { name: 'Backing up…' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    finish();
    await waitFor(() => expect(within(section).getAllByRole('listitem')).toHaveLength(2));
    expect(within(section).getByRole('button', { name: 'Back up now' })).toBeTruthy();
    expect(t.inputsOf('backups.create')).toHaveLength(1);
  });

  it('shows a failed backup in the section', async () => {
    const { t, finish } = engine({ fail: true });
    const { user, section } = await openSection(t);
    await user.click(within(section).getByRole('button', { name: 'Back up now' }));
    finish();
    await waitFor(() => expect(section.textContent).toContain('The backup failed its check'));
    expect(within(section).getAllByRole('listitem')).toHaveLength(1);
  });

  it('Restore… asks first (Cancel has the focus), says what is kept, and keeps the command for a terminal', async () => {
    const { t } = engine();
    const { user, section } = await openSection(t);
    await user.click(within(section).getByRole('button', { name: /^Restore the backup of/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Restore this backup?' });
    expect(dialog.textContent).toContain('The current state is backed up first');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Cancel'));
    expect((within(dialog).getByLabelText('Restore command') as HTMLInputElement).value).toBe(
      'brain --home /data backups restore workspace-2026-12-03T09-00-00Z.db',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(t.calls.some((c) => c.name === 'backups.restore')).toBe(false);
  });

  it('Restore runs backups.restore with the backup named, busy until the engine answers, and shows a refusal', async () => {
    const { t } = engine();
    let release: () => void = () => undefined;
    t.answer('backups.restore', async () => {
      await new Promise<void>((r) => {
        release = r;
      });
      throw new AppError('busy', 'Another process is reading this workspace; close it, then restore.');
    });
    const { user, section } = await openSection(t);
    await user.click(within(section).getByRole('button', { name: /^Restore the backup of/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Restore this backup?' });
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    const busy = await within(dialog).findByRole('button', { name: 'Restoring…' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(t.inputsOf('backups.restore')).toEqual([{ name: 'workspace-2026-12-03T09-00-00Z.db' }]);
    release();
    await waitFor(() => expect(dialog.textContent).toContain('Could not restore'));
    expect(dialog.textContent).toContain('Another process is reading this workspace');
    expect(within(dialog).getByRole('button', { name: 'Restore' })).toBeTruthy();
  });
});
