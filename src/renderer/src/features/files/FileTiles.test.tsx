/**
 * The Files screen as tiles, in the real app shell over a fake engine: the switch (remembered for the
 * next start), as many tiles to a line as fit, the keyboard in two directions, sorting without the
 * table's header, and a file's password form in its tile.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '#shared/errors.ts';
import { needsPasswordReason } from '#shared/password.ts';
import { fileDossier, fileRow, shellAnswers } from '../../test/canned.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';
import { tilesPerLine } from './FileTiles.tsx';

const ROWS = Array.from({ length: 12 }, (_, i) => fileRow(i + 1));

function engine(rows = ROWS) {
  const t = fakeTransport(shellAnswers(rows));
  t.answer('files.index', (input) => ({ queued: input.ids?.length ?? rows.length }));
  t.answer('items.dossier', (input) => {
    const row = rows.find((r) => r.id === input.id);
    if (!row) throw new Error(`no row ${input.id}`);
    return fileDossier(row);
  });
  return t;
}

const tileLabels = (grid: HTMLElement) =>
  within(grid)
    .getAllByRole('gridcell')
    .filter((c) => c.getAttribute('aria-selected') === 'true')
    .map((c) => c.querySelector('.tile__name')?.textContent);

afterEach(() => localStorage.clear());

describe('Files as tiles', () => {
  it('fits as many tiles to a line as the width allows', () => {
    expect(tilesPerLine(0)).toBe(1);
    expect(tilesPerLine(300)).toBe(1);
    expect(tilesPerLine(1200)).toBe(5);
  });

  it('switches from the table, lines up five to a line at 1200 px, and moves by one or by a line', async () => {
    const t = engine();
    const { user } = renderApp(t);
    await screen.findByRole('grid', { name: 'Files' });
    await user.click(screen.getByRole('button', { name: 'Tiles view' }));
    expect(screen.getByRole('button', { name: 'Tiles view' }).getAttribute('aria-pressed')).toBe('true');

    const grid = await screen.findByRole('grid', { name: 'Files' });
    await within(grid).findByText('note-12.md');
    expect(grid.getAttribute('aria-colcount')).toBe('5');
    expect(grid.getAttribute('aria-rowcount')).toBe('3');
    expect(within(grid).getAllByRole('gridcell')).toHaveLength(12);
    act(() => grid.focus());

    await user.keyboard('{ArrowRight}');
    expect(grid.getAttribute('aria-activedescendant')).toBe('file-tile-0');
    await user.keyboard('{ArrowRight}{ArrowDown}');
    expect(grid.getAttribute('aria-activedescendant')).toBe('file-tile-6');
    expect(tileLabels(grid)).toEqual(['note-07.md']);
    await user.keyboard('{Shift>}{ArrowLeft}{ArrowLeft}{/Shift}');
    expect(tileLabels(grid)).toEqual(['note-05.md', 'note-06.md', 'note-07.md']);
    await user.keyboard('i');
    await waitFor(() => expect(t.inputsOf('files.index')).toEqual([{ ids: ['file-5', 'file-6', 'file-7'] }]));

    // Down from the last full line goes to the last file, not past it.
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(grid.getAttribute('aria-activedescendant')).toBe('file-tile-11');
    await user.keyboard('{Enter}');
    const dossier = await screen.findByRole('complementary', { name: 'Dossier' });
    await within(dossier).findByRole('heading', { name: 'note-12.md' });
  });

  it('opens a clicked tile, keeps the keyboard on the grid, and remembers the view for the next start', async () => {
    const first = renderApp(engine());
    await first.user.click(await screen.findByRole('button', { name: 'Tiles view' }));
    const grid = await screen.findByRole('grid', { name: 'Files' });
    await first.user.click(await within(grid).findByText('note-03.md'));
    expect(document.activeElement).toBe(grid);
    const dossier = await screen.findByRole('complementary', { name: 'Dossier' });
    await within(dossier).findByRole('heading', { name: 'note-03.md' });
    await first.user.keyboard('{ArrowRight}');
    expect(grid.getAttribute('aria-activedescendant')).toBe('file-tile-3');
    first.unmount();

    renderApp(engine());
    const again = await screen.findByRole('grid', { name: 'Files' });
    await within(again).findByText('note-01.md');
    expect(again.getAttribute('aria-colcount')).toBe('5');
    expect(screen.getByRole('button', { name: 'Table view' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('sorts by the same keys as the table header', async () => {
    const t = engine();
    const { user } = renderApp(t);
    await user.click(await screen.findByRole('button', { name: 'Tiles view' }));
    const sortBy = await screen.findByRole('group', { name: 'Sort by' });
    expect(
      within(sortBy).getByRole('button', { name: 'Added, descending' }).getAttribute('aria-pressed'),
    ).toBe('true');
    await user.click(within(sortBy).getByRole('button', { name: 'Name' }));
    // The list loads again in the new order (the tiles come back once it has).
    const sorted = await screen.findByRole('button', { name: 'Name, ascending' });
    expect(sorted.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() =>
      expect(t.inputsOf('files.list').some((q) => q.sort === 'name' && q.dir === 'asc')).toBe(true),
    );
  });

  it('holds the password form of a locked file in its tile, from the U key', async () => {
    const locked = fileRow(1, {
      label: 'report.pdf',
      kind: 'pdf',
      format: 'pdf',
      state: 'failed',
      reason: needsPasswordReason('PDF'),
    });
    const t = engine([locked, fileRow(2)]);
    t.answer('files.unlock', (input) => {
      if (input.password !== 'open') throw new AppError('refused', 'wrong password for report.pdf');
      return { id: locked.id, label: 'report.pdf', sections: 3, mentions: 0 };
    });
    const { user } = renderApp(t);
    await user.click(await screen.findByRole('button', { name: 'Tiles view' }));
    const grid = await screen.findByRole('grid', { name: 'Files' });
    await within(grid).findByText('report.pdf');
    act(() => grid.focus());
    await user.keyboard('{ArrowRight}u');
    const field = within(grid).getByLabelText('Password for report.pdf');
    await waitFor(() => expect(document.activeElement).toBe(field));
    await user.type(field, 'guess{Enter}');
    await within(grid).findByText('Wrong password');
    await user.type(field, 'open{Enter}');
    await waitFor(() => expect(t.inputsOf('files.unlock')).toHaveLength(2));
    await waitFor(() => expect(document.activeElement).toBe(grid));
    await user.keyboard('{Escape}');
  });
});
