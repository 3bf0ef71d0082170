/**
 * Settings → Access checks in the real app shell over a fake engine ([R4] in docs/RETRIEVAL.md):
 * the kept checks fill the text area, Run keeps them and shows progress then the pass/fail table,
 * Ctrl+Enter runs, errors show as notices, and a member who is not the local admin is told why.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AccessCheckReport } from '#shared/api/ops/access.ts';
import { shellAnswers } from '../../test/canned.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';

const KEPT = '[{"as": "ana", "question": "contract renewal", "mustReach": ["contract.md"]}]';
const SAVED_AT = '2026-01-05T10:00:00.000Z';

const REPORT: AccessCheckReport = {
  cases: [
    {
      as: 'ana',
      question: 'contract renewal',
      pass: true,
      reached: ['contract.md'],
      missing: [],
      leaked: [],
    },
    {
      as: 'ben',
      question: 'contract renewal',
      pass: false,
      reached: [],
      missing: ['contract.md'],
      leaked: [],
    },
    {
      as: 'ana',
      question: 'salaries',
      pass: false,
      reached: [],
      missing: [],
      leaked: [],
      error: 'no file "pay.md" in this workspace (give its id f_…, its path or its name)',
    },
  ],
  passed: 1,
  failed: 2,
  semantic: false,
};

/** An engine keeping checks text, whose runs answer `report` once `release` is called. */
function engine(text = KEPT) {
  let kept = { text, savedAt: text ? SAVED_AT : null };
  let release: () => void = () => undefined;
  const t = fakeTransport(shellAnswers());
  t.answer('accessChecks.get', () => kept);
  t.answer('accessChecks.set', (input) => {
    kept = { text: input.text, savedAt: new Date().toISOString() };
    return kept;
  });
  t.answer(
    'accessChecks.run',
    () => new Promise<AccessCheckReport>((done) => (release = () => done(REPORT))),
  );
  return Object.assign(t, { release: () => release() });
}

async function openSettings(t: ReturnType<typeof fakeTransport>) {
  const view = renderApp(t);
  const rail = await screen.findByRole('navigation', { name: 'Main' });
  await view.user.click(within(rail).getByRole('button', { name: 'Settings' }));
  await screen.findByRole('heading', { name: 'Settings', level: 1 });
  const section = screen.getByRole('region', { name: 'Access checks' });
  return { ...view, section };
}

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );

describe('Settings → Access checks', () => {
  it('shows the kept checks, keeps the edit and runs them with progress, then the pass/fail table', async () => {
    const t = engine();
    const { user, section } = await openSettings(t);
    const box = within(section).getByRole('textbox', { name: 'Access checks' }) as HTMLTextAreaElement;
    await waitFor(() => expect(box.value).toBe(KEPT));

    await user.clear(box);
    await user.click(box);
    await user.paste(`${KEPT}\n`);
    await user.click(within(section).getByRole('button', { name: 'Run checks' }));
    await within(section).findByRole('progressbar', { name: 'Access checks running' });
    expect(within(section).getByRole('button', { name: 'Run checks' })).toHaveProperty('disabled', true);
    expect(t.inputsOf('accessChecks.set')).toEqual([{ text: `${KEPT}\n` }]);
    expect(t.inputsOf('accessChecks.run')).toEqual([{}]);

    t.release();
    const table = await within(section).findByRole('table', { name: 'Access check results' });
    expect(within(section).queryByRole('progressbar')).toBeNull();
    expect(rowsOf(table)).toEqual([
      ['1', 'ana', 'contract renewal', 'PASS', ''],
      ['2', 'ben', 'contract renewal', 'FAIL', 'Missing: contract.md'],
      ['3', 'ana', 'salaries', 'FAIL', REPORT.cases[2]?.error],
    ]);
    expect(within(section).getByRole('status', { name: 'Access check summary' }).textContent).toBe(
      '1 passed, 2 failed · keyword search only (semantic search is off)',
    );
  });

  it('runs from the keyboard with Ctrl+Enter and shows an error with ErrorNotice', async () => {
    const t = engine();
    t.fail(
      'accessChecks.run',
      'validation-failed',
      'the access checks kept in Settings: case 1, as: is not a member id.',
    );
    const { user, section } = await openSettings(t);
    const box = within(section).getByRole('textbox', { name: 'Access checks' }) as HTMLTextAreaElement;
    await waitFor(() => expect(box.value).toBe(KEPT));
    box.focus();
    await user.keyboard('{Control>}{Enter}{/Control}');
    const alert = await within(section).findByRole('alert');
    expect(alert.textContent).toContain('Could not run the access checks');
    expect(alert.textContent).toContain('case 1, as: is not a member id.');
    expect(alert.textContent).toContain('validation-failed');
    expect(within(section).queryByRole('table')).toBeNull();
  });

  it('Save keeps the checks without running them; Run waits for some text', async () => {
    const t = engine('');
    const { user, section } = await openSettings(t);
    const run = within(section).getByRole('button', { name: 'Run checks' });
    const save = within(section).getByRole('button', { name: 'Save' });
    await waitFor(() => expect(within(section).getByRole('textbox')).toHaveProperty('disabled', false));
    expect(run).toHaveProperty('disabled', true);
    expect(within(section).getByText(/Not kept yet/)).toBeTruthy();

    await user.click(within(section).getByRole('textbox', { name: 'Access checks' }));
    await user.paste(KEPT);
    await user.click(save);
    await waitFor(() => expect(t.inputsOf('accessChecks.set')).toEqual([{ text: KEPT }]));
    await within(section).findByText(/^Kept in this workspace just now$/);
    expect(save).toHaveProperty('disabled', true);
    expect(t.inputsOf('accessChecks.run')).toEqual([]);
  });

  it('tells a member who is not the local admin why, with no checks to edit', async () => {
    const t = fakeTransport(shellAnswers());
    const why =
      "Access checks are for the local admin only, as they search as other members: the local admin is tester (the workspace's first local user), not ada.";
    t.fail('accessChecks.get', 'forbidden', why);
    const { section } = await openSettings(t);
    expect((await within(section).findByRole('note')).textContent).toBe(why);
    expect(within(section).queryByRole('textbox')).toBeNull();
    expect(within(section).queryByRole('button', { name: 'Run checks' })).toBeNull();
  });
});
