/**
 * A file that needs a password, in the real Files grid over a fake engine (docs/FORMATS.md [F12]):
 * "Enter password" opens the row's form, Enter unlocks, a wrong password says so in the row and
 * empties the field, the right one indexes the file; U opens the form from the keyboard, the grid's
 * keys do nothing while typing, and Escape cancels.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppError } from '#shared/errors.ts';
import { needsPasswordReason } from '#shared/password.ts';
import { fileRow, listFiles, shellAnswers } from '../../test/canned.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';

const LOCKED = fileRow(1, {
  label: 'report.pdf',
  path: 'docs/report.pdf',
  kind: 'pdf',
  format: 'pdf',
  state: 'failed',
  reason: needsPasswordReason('PDF'),
});
const PLAIN = fileRow(2, { state: 'failed', reason: 'corrupt or unreadable PDF: bad xref' });

function engine() {
  const t = fakeTransport(shellAnswers([LOCKED, PLAIN]));
  t.answer('files.index', (input) => ({ queued: input.ids?.length ?? 0 }));
  return t;
}

async function grid() {
  const g = await screen.findByRole('grid', { name: 'Files' });
  await within(g).findByText('report.pdf');
  return g;
}

describe('Enter password', () => {
  it('unlocks from the row: a wrong password says so, the right one indexes the file', async () => {
    const t = engine();
    t.answer('files.unlock', (input) => {
      if (input.password !== '  open sesame ') throw new AppError('refused', 'wrong password for report.pdf');
      return { id: LOCKED.id, label: 'report.pdf', sections: 3, mentions: 0 };
    });
    const { user } = renderApp(t);
    const g = await grid();
    // Only the file that needs a password offers one; the other failure keeps its chip.
    expect(within(g).getAllByRole('button', { name: /^Enter password/ })).toHaveLength(1);
    within(g).getByRole('button', { name: /^Failed: corrupt/ });

    await user.click(within(g).getByRole('button', { name: 'Enter password for report.pdf' }));
    const field = within(g).getByLabelText('Password for report.pdf');
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(field.getAttribute('type')).toBe('password');
    expect(within(g).getByRole('button', { name: 'Unlock' }).hasAttribute('disabled')).toBe(true);

    await user.type(field, 'guess{Enter}');
    await within(g).findByText('Wrong password');
    expect((field as HTMLInputElement).value).toBe('');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(field));

    t.answer('files.list', listFiles([{ ...LOCKED, state: 'indexed', reason: null, sections: 3 }, PLAIN]));
    await user.type(field, '  open sesame {Enter}');
    await screen.findByText('Unlocked report.pdf: indexed, 3 sections');
    await within(g).findByText('Indexed');
    expect(within(g).queryByLabelText('Password for report.pdf')).toBeNull();
    expect(t.inputsOf('files.unlock')).toEqual([
      { id: LOCKED.id, password: 'guess' },
      { id: LOCKED.id, password: '  open sesame ' },
    ]);
    // Not the dossier: clicking into the form never opened the row.
    expect(screen.queryByRole('complementary', { name: 'Dossier' })).toBeNull();
  });

  it('shows the busy state while the unlock runs', async () => {
    const t = engine();
    let finish: () => void = () => {};
    t.answer(
      'files.unlock',
      () =>
        new Promise((resolve) => {
          finish = () => resolve({ id: LOCKED.id, label: 'report.pdf', sections: 1, mentions: 0 });
        }),
    );
    const { user } = renderApp(t);
    const g = await grid();
    await user.click(within(g).getByRole('button', { name: 'Enter password for report.pdf' }));
    await user.type(within(g).getByLabelText('Password for report.pdf'), 'pw{Enter}');
    const busy = await within(g).findByRole('button', { name: 'Unlocking…' });
    expect(busy.hasAttribute('disabled')).toBe(true);
    expect(within(g).getByRole('form', { name: 'Unlock report.pdf' }).getAttribute('aria-busy')).toBe('true');
    act(() => finish());
    await screen.findByText('Unlocked report.pdf: indexed, 1 section');
  });

  it('opens with U from the keyboard, keeps the grid keys out of the field, and cancels with Escape', async () => {
    const t = engine();
    const { user } = renderApp(t);
    const g = await grid();
    act(() => g.focus());
    await user.keyboard('{ArrowDown}u');
    const field = await within(g).findByLabelText('Password for report.pdf');
    await waitFor(() => expect(document.activeElement).toBe(field));

    await user.keyboard('i{Delete} ');
    expect((field as HTMLInputElement).value).toBe('i ');
    expect(t.inputsOf('files.index')).toEqual([]);
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(within(g).queryByLabelText('Password for report.pdf')).toBeNull());
    expect(document.activeElement).toBe(g);
    expect(t.inputsOf('files.unlock')).toEqual([]);
    within(g).getByRole('button', { name: 'Enter password for report.pdf' });
  });
});
