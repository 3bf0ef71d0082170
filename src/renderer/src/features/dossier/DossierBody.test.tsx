/**
 * [F15] Which view a citation opens in the dossier, over a fake engine: a PDF passage its page view
 * (asking items.original for the passage's bytes), a DOCX, PPTX or XLSX passage its text view with
 * the range marked; a page that cannot be drawn names the page, the file and the reason, and the
 * text view is one click away.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Dossier, ItemView } from '#shared/api/types.ts';
import type { FileFormat, Locator } from '#shared/types.ts';
import { type AppActions, AppContext } from '../../app/app-context.ts';
import { installTransport } from '../../lib/api.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { DossierBody } from './DossierBody.tsx';

const TEXT = 'Intro.\nThe zephyr timetable moves to hourly sailings.\nThe end.';
const START = TEXT.indexOf('The zephyr');
const END = START + 'The zephyr timetable moves to hourly sailings.'.length;

function view(id: string, label: string, format: FileFormat, patch: Partial<ItemView> = {}): ItemView {
  return {
    id,
    storageKind: 'file',
    kind: format,
    label,
    scope: 'org',
    origin: { actor: 'ada', source: 'upload', run: null, at: '2026-01-02T09:00:00.000Z' },
    occurredAt: null,
    dated: null,
    createdAt: '2026-01-02T09:00:00.000Z',
    updatedAt: '2026-01-02T09:00:00.000Z',
    version: 1,
    retiredAt: null,
    indexed: true,
    size: 1200,
    format,
    path: `/files/${label}`,
    health: [],
    reason: null,
    locator: null,
    ...patch,
  };
}

function dossierOf(format: FileFormat, label: string, locator: Locator): Dossier {
  const file = view('f_00000000000000000001', label, format);
  const item = view('s_00000000000000000002', `${label}, part 1`, format, {
    storageKind: 'section',
    locator,
  });
  return {
    item,
    file,
    outline: [],
    text: TEXT,
    textNote: null,
    highlight: { start: START, end: END },
    citation: { itemId: item.id, fileId: file.id, fileLabel: label, blob: 'ab'.repeat(32), locator },
  };
}

function show(d: Dossier, transport = fakeTransport()) {
  installTransport(transport);
  const actions = { openDossier: vi.fn(), notify: vi.fn() } as unknown as AppActions;
  render(
    <AppContext.Provider value={actions}>
      <DossierBody dossier={d} item={d.item} fileItem={d.file ?? undefined} scrollKey="1" openKey="1" />
    </AppContext.Provider>,
  );
  return { transport, user: userEvent.setup() };
}

const lines = { lineStart: 2, lineEnd: 2 };

describe('[F15] the view a citation opens', () => {
  it.each([
    ['docx', 'memo.docx', { type: 'docx', charStart: START, charEnd: END, ...lines }],
    ['pptx', 'deck.pptx', { type: 'pptx', slide: 2, charStart: START, charEnd: END, ...lines }],
    ['xlsx', 'budget.xlsx', { type: 'xlsx', sheet: 'Q1', rowStart: 2, rowEnd: 2 }],
  ] as [FileFormat, string, Locator][])(
    'keeps the text view for %s, the range marked',
    (format, label, locator) => {
      const { transport } = show(dossierOf(format, label, locator));
      const text = screen.getByRole('document', { name: `Text of ${label}` });
      expect(text.querySelector('mark.cited')?.textContent).toBe(TEXT.slice(START, END));
      expect(screen.queryByRole('region', { name: `Page view of ${label}` })).toBeNull();
      expect(transport.calls).toEqual([]);
    },
  );

  it("opens a PDF passage's page, asking for the passage's bytes; a failure offers the text", async () => {
    const transport = fakeTransport();
    transport.fail(
      'items.original',
      'not-found',
      'The stored bytes abababababab… are missing from the blob store.',
    );
    const locator: Locator = { type: 'pdf', page: 2, charStart: 0, charEnd: 40, ...lines };
    const { user } = show(dossierOf('pdf', 'report.pdf', locator), transport);
    expect(screen.getByRole('region', { name: 'Page view of report.pdf' })).toBeTruthy();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'Could not render page 2 of report.pdf: The stored bytes abababababab… are missing from the blob store.',
    );
    expect(transport.inputsOf('items.original')).toEqual([{ id: 's_00000000000000000002' }]);
    await user.click(screen.getByRole('button', { name: 'Show the text' }));
    const text = screen.getByRole('document', { name: 'Text of report.pdf' });
    expect(text.querySelector('mark.cited')?.textContent).toBe(TEXT.slice(START, END));
    await user.click(screen.getByRole('button', { name: 'Page view' }));
    expect(await screen.findByRole('region', { name: 'Page view of report.pdf' })).toBeTruthy();
  });
});
