/**
 * Settings → Indexing → OCR languages ([O2] in docs/OCR.md) in the real app shell over a fake
 * engine: the installed languages are offered by name as checkboxes, a language checked joins the
 * end of the list (the first stays the main one), the last one cannot be unchecked, no more than
 * three can be, and a refusal shows in the row without changing the choice.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppError } from '#shared/errors.ts';
import { shellAnswers } from '../../test/canned.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';

function engine(fail = false) {
  const t = fakeTransport(shellAnswers());
  let chosen = ['eng'];
  const view = () => ({
    indexOnAdd: true,
    ocrLanguages: chosen,
    ocrLanguagesAvailable: ['deu', 'eng', 'rus', 'xyz'],
    dataFolder: '/data',
    user: 'ana',
  });
  t.answer('settings.get', view);
  t.answer('settings.set', (input) => {
    if (fail) throw new AppError('validation-failed', 'no OCR data for deu');
    chosen = input.ocrLanguages ?? chosen;
    return view();
  });
  return t;
}

async function openRow(t: ReturnType<typeof fakeTransport>) {
  const view = renderApp(t);
  const rail = await screen.findByRole('navigation', { name: 'Main' });
  await view.user.click(within(rail).getByRole('button', { name: 'Settings' }));
  const section = await screen.findByRole('region', { name: 'Indexing' });
  const group = await within(section).findByRole('group', { name: 'OCR languages' });
  const box = (name: string) => within(group).getByRole('checkbox', { name }) as HTMLInputElement;
  return { ...view, section, group, box };
}

describe('Settings → Indexing → OCR languages', () => {
  it('offers the installed languages by name and adds the one checked after the main one', async () => {
    const t = engine();
    const { user, group, box } = await openRow(t);
    await waitFor(() => expect(box('English').checked).toBe(true));
    expect(
      within(group)
        .getAllByRole('checkbox')
        .map((c) => c.parentElement?.textContent?.trim()),
    ).toEqual(['German', 'English', 'Russian', 'xyz']);
    // The only language checked cannot be unchecked: scans are always read in something.
    expect(box('English').disabled).toBe(true);
    await user.click(box('Russian'));
    await waitFor(() => expect(t.inputsOf('settings.set')).toEqual([{ ocrLanguages: ['eng', 'rus'] }]));
    await waitFor(() => expect(box('Russian').checked).toBe(true));
    expect(group.textContent).toContain('read in English and Russian');
    expect(box('English').disabled).toBe(false);
    await user.click(box('English'));
    await waitFor(() => expect(t.inputsOf('settings.set').at(-1)).toEqual({ ocrLanguages: ['rus'] }));
    await waitFor(() => expect(box('Russian').disabled).toBe(true));
  });

  it('lets no more than three be checked', async () => {
    const t = engine();
    const { user, box } = await openRow(t);
    await waitFor(() => expect(box('English').checked).toBe(true));
    await user.click(box('German'));
    await waitFor(() => expect(box('German').checked).toBe(true));
    await user.click(box('Russian'));
    await waitFor(() => expect(box('Russian').checked).toBe(true));
    expect(box('xyz').disabled).toBe(true);
    expect(t.inputsOf('settings.set').at(-1)).toEqual({ ocrLanguages: ['eng', 'deu', 'rus'] });
  });

  it('shows a refusal in the row and keeps the languages it had', async () => {
    const t = engine(true);
    const { user, group, box } = await openRow(t);
    await waitFor(() => expect(box('English').checked).toBe(true));
    await user.click(box('German'));
    const alert = await within(group).findByRole('alert');
    expect(alert.textContent).toContain('Could not change the OCR languages: no OCR data for deu');
    expect(box('German').checked).toBe(false);
    expect(box('English').checked).toBe(true);
  });
});
