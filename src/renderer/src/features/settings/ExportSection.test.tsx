/**
 * Settings → Your data ([N16] in docs/PACKAGING.md) in the real app shell over a fake engine:
 * "Export everything" is busy with a progress bar fed by export.progress, then says where the
 * export went and what it holds; a refusal (a folder that is not empty) shows in the section.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppError } from '#shared/errors.ts';
import { shellAnswers } from '../../test/canned.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';

function engine() {
  const t = fakeTransport(shellAnswers());
  t.answer('backups.list', () => ({ backups: [], folder: '/data/backups', keepDays: 7 }));
  const asked: unknown[] = [];
  let release: () => void = () => undefined;
  t.answer('workspace.export', async (input: { out?: string }) => {
    asked.push(input);
    if (input.out === '/full') {
      throw new AppError(
        'validation-failed',
        '/full is not empty: export into a new or empty folder. Nothing was written.',
      );
    }
    await new Promise<void>((r) => {
      release = r;
    });
    return {
      folder: input.out ?? '/home/me/Org Brain export 2026-12-05 1600',
      counts: {
        files: 12,
        sections: 80,
        notes: 3,
        entities: 7,
        edges: 40,
        facts: 5,
        agents: 2,
        agentVersions: 3,
        observations: 9,
        runs: 4,
        bytes: 1_000_000,
      },
    };
  });
  return { t, asked, finish: () => release() };
}

async function openSection(t: ReturnType<typeof fakeTransport>) {
  const view = renderApp(t);
  const rail = await screen.findByRole('navigation', { name: 'Main' });
  await view.user.click(within(rail).getByRole('button', { name: 'Settings' }));
  const section = await screen.findByRole('region', { name: 'Your data' });
  return { ...view, section };
}

describe('Settings → Your data', () => {
  it('exports with progress into the default folder, then says where and how much', async () => {
    const { t, asked, finish } = engine();
    const { user, section } = await openSection(t);
    await user.click(within(section).getByRole('button', { name: 'Export everything' }));
    const busy = await within(section).findByRole('button', { name: 'Exporting…' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    act(() => t.emit('export.progress', { phase: 'items', done: 50, total: 200 }));
    const bar = await within(section).findByRole('progressbar', { name: 'Exporting items' });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    finish();
    const status = await within(section).findByRole('status');
    expect(status.textContent).toContain(
      'Exported 12 files, 3 notes, 7 entities, 5 facts and 40 links, 2 agents with 3 brain versions and 9 observations to',
    );
    expect(status.textContent).toContain('/home/me/Org Brain export 2026-12-05 1600');
    expect(asked).toEqual([{}]);
    expect(within(section).queryByRole('progressbar')).toBeNull();
  });

  it('names the folder typed, and shows a refusal in the section', async () => {
    const { t, asked } = engine();
    const { user, section } = await openSection(t);
    await user.type(within(section).getByRole('textbox', { name: 'Folder' }), '/full{Enter}');
    await waitFor(() => expect(section.textContent).toContain('Could not export'));
    expect(section.textContent).toContain('/full is not empty');
    expect(asked).toEqual([{ out: '/full' }]);
    expect(within(section).getByRole('button', { name: 'Export everything' })).toBeTruthy();
  });
});
