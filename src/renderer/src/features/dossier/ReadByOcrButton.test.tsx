/**
 * docs/OCR.md [O9] in the dossier over a fake engine: a PDF's dossier offers "Read by OCR" (with
 * what it is for), which asks files.index with `ocr: true` and stays busy, naming the page being
 * read, until the file is indexed; a file read by OCR offers "Use text layer" instead. Other
 * formats offer neither. Everything works from the keyboard.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Dossier, ItemView } from '#shared/api/types.ts';
import { type AppActions, AppContext, type DossierTarget } from '../../app/app-context.ts';
import { installTransport } from '../../lib/api.ts';
import { type FakeTransport, fakeTransport } from '../../test/fake-transport.ts';
import { DossierPane } from './DossierPane.tsx';
import { ReadByOcrButton } from './ReadByOcrButton.tsx';

const ID = 'f_00000000000000000012';

function file(patch: Partial<ItemView> = {}): ItemView {
  return {
    id: ID,
    storageKind: 'file',
    kind: 'pdf',
    label: 'tax-form.pdf',
    scope: 'org',
    origin: { actor: 'ada', source: 'upload', run: null, at: '2026-01-02T09:00:00.000Z' },
    occurredAt: null,
    dated: null,
    createdAt: '2026-01-02T09:00:00.000Z',
    updatedAt: '2026-01-02T09:00:00.000Z',
    version: 1,
    retiredAt: null,
    indexed: true,
    size: 603_342,
    format: 'pdf',
    path: '/files/tax-form.pdf',
    health: [],
    reason: null,
    locator: null,
    ...patch,
  };
}

const disabled = (name: string) => (screen.getByRole('button', { name }) as HTMLButtonElement).disabled;
/** The text of what the element's aria-describedby names. */
const description = (el: HTMLElement) =>
  document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '';

function actions(): AppActions {
  return { openDossier: vi.fn(), closeDossier: vi.fn(), notify: vi.fn() } as unknown as AppActions;
}

function showButton(item: ItemView, transport: FakeTransport) {
  installTransport(transport);
  const app = actions();
  const onIndexed = vi.fn();
  render(
    <AppContext.Provider value={app}>
      <ReadByOcrButton file={item} onIndexed={onIndexed} />
    </AppContext.Provider>,
  );
  return { app, onIndexed, user: userEvent.setup() };
}

describe('[O9] Read by OCR in the dossier', () => {
  it('asks to read the PDF by OCR, stays busy with the page being read, and is done when it is indexed', async () => {
    const t = fakeTransport();
    t.answer('files.index', (input) => ({
      queued: 1,
      reading: [{ id: ID, label: 'tax-form.pdf', ocr: input.ocr === true }],
    }));
    const { app, onIndexed, user } = showButton(file(), t);
    const button = screen.getByRole('button', { name: 'Read by OCR' });
    expect(description(button)).toMatch(/for scans whose text comes out garbled/);
    expect(description(button)).toMatch(/OCR languages of Settings → Indexing/);
    // From the keyboard: Tab to it, Enter presses it.
    await user.tab();
    expect(document.activeElement).toBe(button);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(t.inputsOf('files.index')).toEqual([{ ids: [ID], ocr: true }]));
    expect(app.notify).toHaveBeenCalledWith('Reading tax-form.pdf by OCR', 'success');
    expect(disabled('Reading…')).toBe(true);
    expect(screen.getByRole('button', { name: 'Reading…' }).getAttribute('aria-busy')).toBe('true');

    const progress = { fileId: ID, label: 'tax-form.pdf', done: 0, total: 1 };
    act(() => t.emit('index.progress', { ...progress, phase: 'indexing', page: 3, pages: 8 }));
    expect(disabled('Reading… p. 3/8')).toBe(true);
    // Another file's progress is not this one's.
    act(() => t.emit('index.progress', { ...progress, fileId: 'f_other', phase: 'indexed', done: 1 }));
    expect(disabled('Reading… p. 3/8')).toBe(true);
    expect(onIndexed).not.toHaveBeenCalled();
    act(() => t.emit('index.progress', { ...progress, phase: 'indexed', done: 1, sections: 12 }));
    expect(onIndexed).toHaveBeenCalledTimes(1);
    expect(disabled('Read by OCR')).toBe(false);
  });

  it('a file read by OCR offers the text layer back; indexed before the answer, it is done at once', async () => {
    const t = fakeTransport();
    t.answer('files.index', () => ({
      queued: 1,
      indexed: [{ id: ID, label: 'tax-form.pdf', sections: 3 }],
      failed: [],
      reading: [{ id: ID, label: 'tax-form.pdf', ocr: false }],
    }));
    const { app, onIndexed, user } = showButton(file({ readByOcr: true }), t);
    const button = screen.getByRole('button', { name: 'Use text layer' });
    expect(description(button)).toMatch(/text layer ignored/);
    await user.click(button);
    await waitFor(() => expect(onIndexed).toHaveBeenCalledTimes(1));
    expect(t.inputsOf('files.index')).toEqual([{ ids: [ID], ocr: false }]);
    expect(app.notify).toHaveBeenCalledWith('Reading tax-form.pdf by its text layer', 'success');
    expect(disabled('Use text layer')).toBe(false);
  });

  it('says why it could not, and can be pressed again', async () => {
    const t = fakeTransport();
    t.fail('files.index', 'busy', 'The workspace is busy.');
    const { app, user } = showButton(file(), t);
    await user.click(screen.getByRole('button', { name: 'Read by OCR' }));
    await waitFor(() =>
      expect(app.notify).toHaveBeenCalledWith(
        'Could not change how tax-form.pdf is read: The workspace is busy.',
        'error',
      ),
    );
    expect(disabled('Read by OCR')).toBe(false);
  });

  it("is in a PDF's dossier header, and not in another format's", async () => {
    const t = fakeTransport();
    const dossierOf = (item: ItemView): Dossier => ({
      item,
      file: item,
      outline: [],
      text: 'Some text.',
      textNote: null,
      highlight: null,
      citation: null,
    });
    let current = file();
    t.answer('items.dossier', () => dossierOf(current));
    t.answer('items.versions', () => ({ versions: [] }) as never);
    installTransport(t);
    const target: DossierTarget = { id: ID, from: 'select', seq: 1 };
    const { unmount } = render(
      <AppContext.Provider value={actions()}>
        <DossierPane target={target} expanded={false} onToggleExpanded={() => undefined} />
      </AppContext.Provider>,
    );
    expect(await screen.findByRole('button', { name: 'Read by OCR' })).toBeTruthy();
    unmount();
    current = file({ id: 'f_00000000000000000013', label: 'memo.docx', format: 'docx', kind: 'docx' });
    render(
      <AppContext.Provider value={actions()}>
        <DossierPane
          target={{ ...target, id: current.id }}
          expanded={false}
          onToggleExpanded={() => undefined}
        />
      </AppContext.Provider>,
    );
    expect(await screen.findByRole('heading', { name: 'memo.docx' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Read by OCR' })).toBeNull();
  });
});
