/** The Agents screen in the real app shell over a fake engine: the list, its empty state, opening an agent. */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { shellAnswers } from '../../test/canned.ts';
import { type FakeTransport, fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';
import { agentEngine, agentSummary, withEffectiveness } from './agents-canned.ts';

async function openAgents(t: FakeTransport) {
  const view = renderApp(t);
  const rail = await screen.findByRole('navigation', { name: 'Main' });
  await view.user.click(within(rail).getByRole('button', { name: 'Agents' }));
  await screen.findByRole('heading', { name: 'Agents', level: 1 });
  return view;
}

describe('Agents list', () => {
  it('shows each agent with tier, active version, waiting of threshold, last synthesis and cost', async () => {
    const t = fakeTransport(shellAnswers());
    t.answer('agents.list', () => ({
      agents: [
        agentSummary('coder', {
          tier: 'lead',
          activeVersion: 4,
          versions: 4,
          waiting: 12,
          threshold: 20,
          lastSynthesizedAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
          costThisWeekUsd: 0.42,
        }),
        agentSummary('reviewer', { waiting: 3, threshold: 90, tier: 'high-volume' }),
      ],
    }));
    await openAgents(t);
    const table = await screen.findByRole('table', { name: 'Agents' });
    const coder = within(table).getByRole('row', { name: /coder/ });
    expect(
      within(coder)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['lead', 'v4', '12 / 20', '3 hours ago', '$0.42']);
    // Unknown cost and no synthesis yet are said, never guessed.
    const reviewer = within(table).getByRole('row', { name: /reviewer/ });
    expect(
      within(reviewer)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['high-volume', 'none yet', '3 / 90', 'never', '—']);
  });

  it('teaches how agents appear when there are none', async () => {
    const t = fakeTransport(shellAnswers());
    t.answer('agents.list', () => ({ agents: [] }));
    await openAgents(t);
    await screen.findByRole('heading', { name: 'No agents yet' });
    screen.getByText('brain mcp --agent NAME');
    screen.getByText('brain_observe');
  });

  it('says why when the list cannot be loaded, and offers to try again', async () => {
    const t = fakeTransport(shellAnswers());
    t.fail('agents.list', 'engine-unavailable', 'The engine stopped.');
    await openAgents(t);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load the agents');
    expect(alert.textContent).toContain('The engine stopped.');
    within(alert).getByRole('button', { name: 'Try again' });
  });

  it('opens an agent page from the list, and comes back', async () => {
    const t = withEffectiveness(agentEngine(), null);
    const { user } = await openAgents(t);
    await user.click(await screen.findByRole('button', { name: 'coder' }));
    await screen.findByRole('heading', { name: 'coder', level: 1 });
    expect(t.calls.some((c) => c.name === 'agents.show')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Back to all agents' }));
    await screen.findByRole('table', { name: 'Agents' });
  });

  it('is reachable from the palette', async () => {
    const t = fakeTransport(shellAnswers());
    t.answer('agents.list', () => ({ agents: [] }));
    const { user } = renderApp(t);
    await screen.findByRole('navigation', { name: 'Main' });
    await user.keyboard('{Control>}k{/Control}');
    await user.keyboard('Go to Agents');
    await user.click(await screen.findByRole('option', { name: /Go to Agents/ }));
    await screen.findByRole('heading', { name: 'Agents', level: 1 });
  });
});
