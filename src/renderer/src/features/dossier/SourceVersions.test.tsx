/** A source's versions in the dossier over a fake engine (docs/FACTS.md [K16]). */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Outputs } from '#shared/api/contract.ts';
import type { ItemView } from '#shared/api/types.ts';
import { type AppActions, AppContext } from '../../app/app-context.ts';
import { installTransport } from '../../lib/api.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { SourceVersions } from './SourceVersions.tsx';

type Version = Outputs['items.versions']['versions'][number];
const ID = 'f_00000000000000000007';

const source: ItemView = {
  id: ID,
  storageKind: 'file',
  kind: 'markdown',
  label: 'contract-2026.md',
  scope: 'org',
  origin: { actor: 'ada', source: 'upload', run: null, at: '2026-01-02T09:00:00.000Z' },
  occurredAt: '2026-06-01T09:00:00.000Z',
  dated: null,
  createdAt: '2026-01-02T09:00:00.000Z',
  updatedAt: '2026-06-01T09:00:00.000Z',
  version: 4,
  retiredAt: null,
  indexed: true,
  size: 120,
  format: 'md',
  path: '/files/contract-2026.md',
  health: [],
  reason: null,
  locator: null,
};

const version = (n: number, patch: Partial<Version>): Version => ({
  id: `f_0000000000000000000${n}`,
  number: n,
  current: false,
  label: `contract-${2024 + n}.md`,
  at: `202${4 + n}-01-01T09:00:00.000Z`,
  replacedAt: `202${5 + n}-01-01T09:00:00.000Z`,
  size: 100,
  blob: null,
  ...patch,
});

function setup(versions: Version[]) {
  installTransport(fakeTransport({ 'items.versions': () => ({ id: ID, versions }) }));
  const actions = { openDossier: vi.fn(), notify: vi.fn() } as unknown as AppActions;
  render(
    <AppContext.Provider value={actions}>
      <SourceVersions source={source} />
    </AppContext.Provider>,
  );
  return { actions, user: userEvent.setup() };
}

describe('SourceVersions', () => {
  it('lists the versions newest first and opens an earlier one', async () => {
    const { actions, user } = setup([
      version(2, { id: ID, current: true, replacedAt: null, label: 'contract-2026.md' }),
      version(1, {}),
    ]);
    const list = await screen.findByRole('region', { name: 'Versions' });
    expect(list.textContent).toContain('v2 · current');
    expect(list.textContent).toContain('contract-2025.md');
    await user.click(screen.getByRole('button', { name: /Open version 1/ }));
    expect(actions.openDossier).toHaveBeenCalledWith('f_00000000000000000001', 'select');
  });

  it('shows nothing while the source has one version', async () => {
    setup([version(1, { id: ID, current: true, replacedAt: null })]);
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole('region', { name: 'Versions' })).toBeNull();
  });
});
