/**
 * An agent's page in the real app shell over a fake engine: the brain by section and its cited ids,
 * rollback behind a confirmation naming both versions, the diff against another version, "Synthesize
 * now" with its outcome, the tier, effectiveness and the stream filters.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';
import type { Effectiveness } from './agents-api.ts';
import { agentEngine, agentSummary, observation, version, withEffectiveness } from './agents-canned.ts';

async function openCoder(t: FakeTransport) {
  const view = renderApp(t);
  const rail = await screen.findByRole('navigation', { name: 'Main' });
  await view.user.click(within(rail).getByRole('button', { name: 'Agents' }));
  await view.user.click(await screen.findByRole('button', { name: 'coder' }));
  await screen.findByRole('heading', { name: 'coder', level: 1 });
  return view;
}

const versionsTable = () => screen.findByRole('table', { name: 'Versions' });

describe('Agent page', () => {
  it('renders the active brain by section, and a cited id filters the stream to its observation', async () => {
    const { user } = await openCoder(withEffectiveness(agentEngine(), null));
    const gotchas = await screen.findByRole('region', { name: 'Gotchas' });
    within(gotchas).getByText('Tests need PGlite');
    within(screen.getByRole('region', { name: 'Conventions' })).getByText('Use named exports');
    // The published sections come in their order: conventions before gotchas.
    const titles = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(titles.indexOf('Conventions')).toBeLessThan(titles.indexOf('Gotchas'));

    await user.click(within(gotchas).getByRole('button', { name: `Cited observation ${observation(1).id}` }));
    const cited = await screen.findByText('Cited observation');
    const box = cited.closest('.obs-cited') as HTMLElement;
    await within(box).findByRole('listitem', { name: `Observation ${observation(1).id}` });
    expect(within(box).queryByRole('listitem', { name: `Observation ${observation(2).id}` })).toBeNull();
    await user.click(within(box).getByRole('button', { name: 'Show all' }));
    await waitFor(() => expect(screen.queryByText('Cited observation')).toBeNull());
  });

  it('rolls back only after a confirmation that names both versions', async () => {
    const t = withEffectiveness(agentEngine(), null);
    const { user } = await openCoder(t);
    const table = await versionsTable();
    expect(within(table).queryByRole('button', { name: 'Roll back to v3' })).toBeNull();

    await user.click(within(table).getByRole('button', { name: 'Roll back to v1' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Roll back coder?' });
    expect(dialog.textContent).toContain(
      'coder reads version 3 now; from its next run it will read version 1.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(t.calls.filter((c) => c.name === 'agents.rollback')).toEqual([]);

    await user.click(within(table).getByRole('button', { name: 'Roll back to v1' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Roll back coder?' });
    await user.click(within(dialog).getByRole('button', { name: 'Roll back to v1' }));
    await waitFor(() => expect(t.inputsOf('agents.rollback')).toEqual([{ agent: 'coder', to: 1 }]));
    await screen.findByText('coder now reads version 1 (was 3)');
    await waitFor(async () =>
      expect((await versionsTable()).querySelector('tr[aria-current="true"] th')?.textContent).toBe(
        'v1active',
      ),
    );
  });

  it('keeps the dialog open with the reason when the rollback is refused', async () => {
    const t = withEffectiveness(agentEngine(), null);
    t.fail('agents.rollback', 'forbidden', 'You cannot write in user:bob.');
    const { user } = await openCoder(t);
    await user.click(within(await versionsTable()).getByRole('button', { name: 'Roll back to v2' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Roll back coder?' });
    await user.click(within(dialog).getByRole('button', { name: 'Roll back to v2' }));
    await within(dialog).findByText('You cannot write in user:bob.');
  });

  it('diffs a version against any other: entries added and removed per section', async () => {
    const t = withEffectiveness(agentEngine(), null);
    t.answer('agents.diff', (input) => ({
      agent: 'coder',
      from: input.from,
      to: input.to,
      sections: [
        {
          section: 'gotchas',
          added: [{ text: 'Tests need PGlite', observation_ids: ['o_1'] }],
          removed: [{ text: 'Tests need PostgreSQL', observation_ids: ['o_0'] }],
        },
        { section: 'conventions', added: [], removed: [] },
      ],
    }));
    const { user } = await openCoder(t);
    const row = within(await versionsTable()).getByRole('row', { name: /^v3/ });
    await user.selectOptions(within(row).getByRole('combobox', { name: 'Diff v3 against' }), 'v1');
    const diff = await screen.findByRole('region', { name: 'Diff v1 → v3' });
    await waitFor(() => expect(t.inputsOf('agents.diff')).toEqual([{ agent: 'coder', from: 1, to: 3 }]));
    const gotchas = await within(diff).findByRole('region', { name: 'Gotchas' });
    within(gotchas).getByRole('listitem', { name: 'Added: Tests need PGlite' });
    within(gotchas).getByRole('listitem', { name: 'Removed: Tests need PostgreSQL' });
    // A section with no change is not shown.
    expect(within(diff).queryByRole('region', { name: 'Conventions' })).toBeNull();
    await user.click(within(diff).getByRole('button', { name: 'Close the diff' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Diff v1 → v3' })).toBeNull());
  });

  it('shows why a synthesis was skipped and can force it; a written version refreshes the page', async () => {
    const t = withEffectiveness(agentEngine(), null);
    t.answer('agents.synthesize', (input) =>
      input.force
        ? { agent: 'coder', state: 'synthesized', reason: null, version: version(4), dropped: 1, pruned: 0 }
        : {
            agent: 'coder',
            state: 'skipped',
            reason: 'not due: 2 of 20 new observations for tier default',
            version: null,
            dropped: 0,
            pruned: 0,
          },
    );
    const { user } = await openCoder(t);
    await user.click(screen.getByRole('button', { name: 'Synthesize now' }));
    const status = screen.getByRole('status', { name: 'Synthesis' });
    await waitFor(() =>
      expect(status.textContent).toBe('Skipped: not due: 2 of 20 new observations for tier default'),
    );
    const shows = t.inputsOf('agents.show').length;
    await user.click(screen.getByRole('button', { name: 'Synthesize anyway' }));
    await waitFor(() =>
      expect(status.textContent).toBe('Synthesized version 4; 1 entry dropped for citing unknown ids'),
    );
    expect(t.inputsOf('agents.synthesize')).toEqual([{ agent: 'coder' }, { agent: 'coder', force: true }]);
    await waitFor(() => expect(t.inputsOf('agents.show').length).toBeGreaterThan(shows));
    expect(screen.queryByRole('button', { name: 'Synthesize anyway' })).toBeNull();
  });

  it('sets the tier', async () => {
    const t = withEffectiveness(agentEngine(), null);
    t.answer('agents.set', (input) => ({
      agent: agentSummary('coder', { tier: input.tier, activeVersion: 3, versions: 3, threshold: 5 }),
    }));
    const { user } = await openCoder(t);
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Tier' }), 'lead');
    await waitFor(() => expect(t.inputsOf('agents.set')).toEqual([{ agent: 'coder', tier: 'lead' }]));
    await screen.findByText('coder is now tier lead: synthesis every 5 observations');
  });

  it('charts success rate per version with the trend, and cost per week', async () => {
    const stats = (number: number, succeeded: number, ended: number) => ({
      number,
      runs: ended,
      ended,
      succeeded,
      rate: ended ? succeeded / ended : null,
      thumbsUp: number === 3 ? 2 : 0,
      thumbsDown: number === 3 ? 1 : 0,
      score: number === 3 ? 6 / 8 : ended ? succeeded / ended : null,
      costUsd: null,
    });
    const data: Effectiveness = {
      agent: 'coder',
      versions: [stats(3, 4, 5), stats(1, 1, 4), stats(2, 0, 0)],
      trend: 'improving',
      weeks: [
        { week: '2026-W47', costUsd: 0.5 },
        { week: '2026-W48', costUsd: null },
      ],
      comparison: {
        a: 3,
        b: 1,
        split: 50,
        since: '2026-11-30T09:15:00.000Z',
        aStats: { runs: 5, succeeded: 4, rate: 0.8 },
        bStats: { runs: 4, succeeded: 1, rate: 0.25 },
      },
    };
    await openCoder(withEffectiveness(agentEngine(), data));
    const rates = await screen.findByRole('list', { name: 'Success rate per version' });
    expect(
      within(rates)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['v125 % (1/4)', 'v2— (0/0)', 'v380 % (4/5) · thumbs 2 up, 1 down · score 75 %']);
    screen.getByText('improving');
    const weeks = screen.getByRole('list', { name: 'Cost per week' });
    expect(
      within(weeks)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['2026-W47$0.50', '2026-W48—']);
    const compare = screen.getByRole('region', { name: 'Side-by-side comparison' });
    expect(compare.textContent).toBe(
      'Comparing in production, 50 % of runs on v3, the rest on v1, runs since 2026-11-30 09:15 UTC:v3 80 % (4/5 runs)v1 25 % (1/4 runs)',
    );
  });

  it('filters the observation stream by type and minimum importance', async () => {
    const t = withEffectiveness(agentEngine(), null);
    const { user } = await openCoder(t);
    const stream = await screen.findByRole('list', { name: 'Observation stream' });
    await waitFor(() => expect(within(stream).getAllByRole('listitem')).toHaveLength(2));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'decision');
    await waitFor(() =>
      expect(t.inputsOf('observations.list').at(-1)).toEqual({ agent: 'coder', limit: 50, type: 'decision' }),
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Minimum importance' }), '0.7');
    await waitFor(() =>
      expect(t.inputsOf('observations.list').at(-1)).toEqual({
        agent: 'coder',
        limit: 50,
        type: 'decision',
        min_importance: 0.7,
      }),
    );
    const filtered = await screen.findByRole('list', { name: 'Observation stream' });
    await waitFor(() =>
      expect(
        within(filtered)
          .getAllByRole('listitem')
          .map((li) => li.getAttribute('aria-label')),
      ).toEqual([`Observation ${observation(1).id}`]),
    );
  });
});
