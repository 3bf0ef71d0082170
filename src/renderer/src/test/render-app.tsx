/** Renders the whole app, as main.tsx does, over a fake transport; returns a user to drive it with. */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../app/App.tsx';
import { installTransport } from '../lib/api.ts';
import type { FakeTransport } from './fake-transport.ts';

export function renderApp(transport: FakeTransport) {
  installTransport(transport);
  const user = userEvent.setup();
  return { user, ...render(<App />) };
}
