/**
 * Settings → Chat model in the real app shell over a fake engine: the engine tests the saved settings,
 * so a test after editing the form must not report the old connection as if it were the new one.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { shellAnswers } from '../../test/canned.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';

const SAVED = 'http://127.0.0.1:11434/v1';

function engine() {
  const t = fakeTransport(shellAnswers());
  let saved = { baseUrl: SAVED, model: 'llama3.1:8b' };
  const view = () => ({
    ...saved,
    hasKey: false,
    keyStorage: 'file' as const,
    suggestedBaseUrl: SAVED,
    enabled: true,
    reason: null,
  });
  t.answer('chatModel.get', view);
  t.answer('chatModel.set', (input) => {
    saved = { baseUrl: input.baseUrl ?? saved.baseUrl, model: input.model ?? saved.model };
    return view();
  });
  t.answer('chatModel.test', () =>
    saved.baseUrl === SAVED
      ? { ok: true, message: `Connected: llama3.1:8b at ${SAVED} answers.`, models: ['llama3.1:8b'] }
      : { ok: false, message: `Cannot reach ${saved.baseUrl}: connection refused.`, models: [] },
  );
  return t;
}

async function openSection(t: ReturnType<typeof fakeTransport>) {
  const view = renderApp(t);
  const rail = await screen.findByRole('navigation', { name: 'Main' });
  await view.user.click(within(rail).getByRole('button', { name: 'Settings' }));
  const section = await screen.findByRole('region', { name: 'Chat model' });
  const url = within(section).getByRole('textbox', { name: 'Base URL' }) as HTMLInputElement;
  await waitFor(() => expect(url.value).toBe(SAVED));
  return { ...view, section, url };
}

describe('Settings → Chat model', () => {
  it('tests the saved settings as they are', async () => {
    const t = engine();
    const { user, section } = await openSection(t);
    await user.click(within(section).getByRole('button', { name: 'Test connection' }));
    await within(section).findByText(`Connected: llama3.1:8b at ${SAVED} answers.`);
    expect(t.inputsOf('chatModel.set')).toEqual([]);
  });

  it('with an edited base URL, saves it before testing, so the result is about what the form says', async () => {
    const t = engine();
    const { user, section, url } = await openSection(t);
    await user.clear(url);
    await user.type(url, 'http://127.0.0.1:9/v1');
    await user.click(within(section).getByRole('button', { name: 'Save and test' }));
    await within(section).findByText('Cannot reach http://127.0.0.1:9/v1: connection refused.');
    expect(t.inputsOf('chatModel.set')).toEqual([{ baseUrl: 'http://127.0.0.1:9/v1', model: 'llama3.1:8b' }]);
    expect(within(section).queryByText(/^Connected/)).toBeNull();
    // Saved: the button is a plain test again.
    within(section).getByRole('button', { name: 'Test connection' });
  });
});
