/**
 * The desktop app's menu and the OS reach the window as `app.command` events (docs/PACKAGING.md
 * [N8], [N10]): files main has added show the report a drop gets; Watch Folder… opens its dialog.
 */
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { shellAnswers } from '../test/canned.ts';
import { fakeTransport } from '../test/fake-transport.ts';
import { renderApp } from '../test/render-app.tsx';

describe('app.command', () => {
  it('shows the report of files handed over by the OS, on the Files screen', async () => {
    const t = fakeTransport(shellAnswers());
    renderApp(t);
    await screen.findByRole('heading', { name: 'Files' });
    act(() =>
      t.emit('app.command', {
        command: 'added',
        source: 'Opened with Org Brain',
        report: {
          added: [{ id: 'f_1', label: 'minutes.pdf', path: '/home/ana/minutes.pdf' }],
          unchanged: [],
          refused: [{ path: '/home/ana/photo.bmp', reason: 'BMP pictures are not read.' }],
        },
      }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Opened with Org Brain');
    expect(dialog.textContent).toContain('minutes.pdf');
    expect(dialog.textContent).toContain('BMP pictures are not read.');
    // The window itself adds nothing: main already did, with files.add.
    expect(t.inputsOf('files.add')).toEqual([]);
  });

  it('tells the person when the engine restarts after a crash, or could not', async () => {
    const t = fakeTransport(shellAnswers());
    renderApp(t);
    await screen.findByRole('heading', { name: 'Files' });
    act(() =>
      t.emit('app.command', { command: 'engine', kind: 'restarting', reason: 'exit code 9', attempt: 1 }),
    );
    expect(
      await screen.findByText(/The engine stopped and is starting again; indexing goes on/),
    ).toBeTruthy();
    act(() => t.emit('app.command', { command: 'engine', kind: 'gave-up', reason: 'exit code 9' }));
    expect(await screen.findByText(/could not be started again: restart Org Brain/)).toBeTruthy();
  });

  it('opens the Watch Folder dialog', async () => {
    const t = fakeTransport(shellAnswers());
    renderApp(t);
    await screen.findByRole('heading', { name: 'Files' });
    act(() => t.emit('app.command', { command: 'watch-folder' }));
    expect(await screen.findByRole('dialog', { name: /watch/i })).toBeTruthy();
  });
});
