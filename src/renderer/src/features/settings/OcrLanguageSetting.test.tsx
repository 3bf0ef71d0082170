/**
 * Settings → Indexing → OCR language ([O2] in docs/OCR.md) in the real app shell over a fake
 * engine: the installed languages are offered by name, a choice is saved with settings.set, and
 * a refusal shows in the row without changing the choice.
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
    ocrLanguagesAvailable: ['deu', 'eng', 'xyz'],
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
  const select = (await within(section).findByRole('combobox', {
    name: 'OCR language',
  })) as HTMLSelectElement;
  return { ...view, section, select };
}

describe('Settings → Indexing → OCR language', () => {
  it('offers the installed languages by name and saves the one chosen', async () => {
    const t = engine();
    const { user, section, select } = await openRow(t);
    await waitFor(() => expect(select.value).toBe('eng'));
    expect([...select.options].map((o) => o.textContent)).toEqual(['German', 'English', 'xyz']);
    expect(section.textContent).toContain('3 languages are installed.');
    await user.selectOptions(select, 'deu');
    await waitFor(() => expect(t.inputsOf('settings.set')).toEqual([{ ocrLanguages: ['deu'] }]));
    await waitFor(() => expect(select.value).toBe('deu'));
  });

  it('shows a refusal in the row and keeps the language it had', async () => {
    const t = engine(true);
    const { user, section, select } = await openRow(t);
    await waitFor(() => expect(select.value).toBe('eng'));
    await user.selectOptions(select, 'deu');
    const alert = await within(section).findByRole('alert');
    expect(alert.textContent).toContain('Could not change the OCR language: no OCR data for deu');
    expect(select.value).toBe('eng');
  });
});
