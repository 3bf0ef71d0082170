/**
 * Settings → Workspace server, not connected yet, in the real app shell over a fake engine: a failed
 * connection says which server and why; the error of an earlier attempt does not stay next to a new
 * address as if it were about it; an address where no workspace server answers says so.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { shellAnswers } from '../../test/canned.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';

const NOT_CONNECTED = {
  connected: false,
  server: null,
  user: null,
  isAdmin: false,
  workspace: null,
  state: null,
  lastAttempt: null,
  lastSync: null,
  pending: 0,
  cursor: 0,
  lastError: null,
  refused: 0,
  lastRefused: null,
  setAside: 0,
};

async function openSection() {
  const t = fakeTransport(shellAnswers());
  t.answer('sync.status', () => NOT_CONNECTED);
  const view = renderApp(t);
  const rail = await screen.findByRole('navigation', { name: 'Main' });
  await view.user.click(within(rail).getByRole('button', { name: 'Settings' }));
  const section = await screen.findByRole('region', { name: 'Workspace server' });
  const url = await within(section).findByRole('textbox', { name: 'Server URL' });
  const code = within(section).getByRole('textbox', { name: 'Invitation code' });
  return { ...view, t, section, url, code };
}

describe('Settings → Workspace server', () => {
  it('names the server a connection failed at, and drops that error once the address is changed', async () => {
    const { t, user, section, url, code } = await openSection();
    t.fail('sync.connect', 'forbidden', 'This invitation is unknown, already used or expired.');
    await user.type(url, 'https://brain.example.org');
    await user.type(code, 'obi_wrongcode');
    await user.click(within(section).getByRole('button', { name: 'Connect' }));
    const alert = await within(section).findByRole('alert');
    within(alert).getByText('Could not connect to https://brain.example.org');
    within(alert).getByText('This invitation is unknown, already used or expired.');

    await user.clear(url);
    await user.type(url, 'https://other.example.org');
    await waitFor(() => expect(within(section).queryByRole('alert')).toBeNull());
  });

  it('says when nothing at the address answers as a workspace server', async () => {
    const { t, user, section, url, code } = await openSection();
    t.fail('sync.connect', 'not-found', 'server: Nothing at /v1/invitations/redeem.');
    await user.type(url, 'http://127.0.0.1:4830');
    await user.type(code, 'obi_somecode');
    await user.click(within(section).getByRole('button', { name: 'Connect' }));
    const alert = await within(section).findByRole('alert');
    within(alert).getByText(/No Org Brain workspace server answers at http:\/\/127\.0\.0\.1:4830/);
  });

  it('says why Connect waits while the invitation code is too short', async () => {
    const { user, section, url, code } = await openSection();
    await user.type(url, 'https://brain.example.org');
    await user.type(code, 'abc');
    expect((within(section).getByRole('button', { name: 'Connect' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    within(section).getByText(/An invitation code has at least 8 characters/);
  });
});
