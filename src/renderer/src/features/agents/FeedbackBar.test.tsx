/**
 * People's feedback (docs/AGENTS.md [G2]) in the real app shell over a fake engine: thumbs with an
 * optional comment and "Tell the agents…" under a chat answer, thumbs on an agent's run in Activity
 * (with `run` where the host takes it, else in the payload only), and a refusal shown clearly.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ActivityEntry, ChatSendResult, ChatTurn } from '#shared/api/types.ts';
import { shellAnswers } from '../../test/canned.ts';
import { type FakeTransport, fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';
import { observation } from './agents-canned.ts';

const AT = '2026-11-30T10:00:00.000Z';
const QUESTION = 'Are late taxis reimbursed?';

function chatEngine(): FakeTransport {
  const turn = (role: 'user' | 'assistant', text: string): ChatTurn => ({
    id: `${role}-1`,
    role,
    text,
    at: AT,
    memories: [],
    reason: 'nothing in the workspace matched',
    modelOff: false,
    modelError: null,
    passages: [],
  });
  const result: ChatSendResult = {
    thread: { id: 'thread-1', title: QUESTION, updatedAt: AT, turns: 2 },
    user: turn('user', QUESTION),
    answer: turn('assistant', 'Up to 40 EUR per ride.'),
  };
  const t = fakeTransport(shellAnswers());
  t.answer('chat.threads', () => ({ threads: [result.thread] }));
  t.answer('chat.send', () => result);
  t.answer('chat.thread', () => ({ ...result.thread, messages: [result.user, result.answer] }));
  t.answer('observations.add', (input) => ({
    observation: observation(9, { agent: null, type: input.type, text: input.text ?? null }),
  }));
  return t;
}

async function askChat(t: FakeTransport) {
  const { user } = renderApp(t);
  await user.click(
    within(await screen.findByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Chat' }),
  );
  await user.type(await screen.findByRole('textbox', { name: 'Message' }), `${QUESTION}{Enter}`);
  const answer = await screen.findByRole('article', { name: 'Answer' });
  return { user, bar: within(answer).getByRole('group', { name: 'Feedback on this answer' }) };
}

function toolEntry(id: number, run: string): ActivityEntry {
  return {
    id,
    at: AT,
    surface: 'agent',
    user: 'ada',
    event: 'tool',
    summary: `brain_search by coder (run ${run}) ok in 3 ms`,
    tool: 'brain_search',
    ok: true,
    ms: 3,
    data: { tool: 'brain_search', agent: 'coder', run, ok: true, ms: 3 },
  };
}

describe('Feedback on a chat answer', () => {
  it('sends a thumbs down with its comment, the question and the answer id', async () => {
    const t = chatEngine();
    const { user, bar } = await askChat(t);
    await user.click(within(bar).getByRole('button', { name: 'Thumbs down' }));
    await user.type(within(bar).getByRole('textbox', { name: 'Comment (optional)' }), 'It is 50 EUR now');
    await user.click(within(bar).getByRole('button', { name: 'Send thumbs down' }));
    await waitFor(() =>
      expect(t.inputsOf('observations.add')).toEqual([
        {
          type: 'human_thumbs_down',
          text: 'It is 50 EUR now',
          payload: { answerId: 'assistant-1', question: QUESTION },
        },
      ]),
    );
    await screen.findByText('Thanks: a thumbs down goes to every agent’s next synthesis');
    expect(within(bar).getByRole('button', { name: 'Thumbs down' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it('sends a thumbs up without a comment', async () => {
    const t = chatEngine();
    const { user, bar } = await askChat(t);
    await user.click(within(bar).getByRole('button', { name: 'Thumbs up' }));
    await user.click(within(bar).getByRole('button', { name: 'Send thumbs up' }));
    await waitFor(() =>
      expect(t.inputsOf('observations.add')).toEqual([
        { type: 'human_thumbs_up', payload: { answerId: 'assistant-1', question: QUESTION } },
      ]),
    );
  });

  it('tells the agents something, and only with a text', async () => {
    const t = chatEngine();
    const { user, bar } = await askChat(t);
    await user.click(within(bar).getByRole('button', { name: 'Tell the agents…' }));
    const send = within(bar).getByRole('button', { name: 'Send to the agents' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    await user.type(within(bar).getByRole('textbox', { name: 'Tell the agents' }), 'Cite the handbook');
    await user.click(send);
    await waitFor(() =>
      expect(t.inputsOf('observations.add')).toEqual([
        {
          type: 'human_feedback',
          text: 'Cite the handbook',
          payload: { answerId: 'assistant-1', question: QUESTION },
        },
      ]),
    );
    await screen.findByText('Sent to the agents: every agent’s next synthesis reads it');
  });

  it('shows the reason when the feedback is refused, and keeps what was typed', async () => {
    const t = chatEngine();
    t.fail('observations.add', 'validation-failed', 'observations.add: text: Too long.');
    const { user, bar } = await askChat(t);
    await user.click(within(bar).getByRole('button', { name: 'Tell the agents…' }));
    const box = within(bar).getByRole('textbox', { name: 'Tell the agents' });
    await user.type(box, 'Something');
    await user.click(within(bar).getByRole('button', { name: 'Send to the agents' }));
    const alert = await within(bar).findByRole('alert');
    expect(alert.textContent).toContain('Your feedback was not sent');
    expect(alert.textContent).toContain('observations.add: text: Too long.');
    expect((box as HTMLTextAreaElement).value).toBe('Something');
  });
});

describe('Feedback on a run in Activity', () => {
  async function openActivity(t: FakeTransport) {
    const { user } = renderApp(t);
    await user.click(
      within(await screen.findByRole('navigation', { name: 'Main' })).getByRole('button', {
        name: 'Activity',
      }),
    );
    await screen.findByRole('list', { name: 'Activity timeline' });
    return user;
  }

  it('offers thumbs once per run, on its newest entry, and sends the run', async () => {
    const t = fakeTransport(shellAnswers());
    t.answer('activity.list', () => ({
      entries: [toolEntry(3, 'run-b'), toolEntry(2, 'run-a'), toolEntry(1, 'run-a')],
    }));
    t.answer('observations.add', (input) => ({
      observation: observation(9, { agent: null, type: input.type }),
    }));
    const user = await openActivity(t);
    const bars = screen.getAllByRole('group', { name: 'Feedback on this run' });
    expect(bars).toHaveLength(2);
    const runA = bars[1] as HTMLElement;
    await user.click(within(runA).getByRole('button', { name: 'Thumbs up' }));
    await user.click(within(runA).getByRole('button', { name: 'Send thumbs up' }));
    await waitFor(() =>
      expect(t.calls.filter((c) => c.name === 'observations.add').map((c) => c.input)).toEqual([
        { type: 'human_thumbs_up', payload: { run: 'run-a', agent: 'coder' }, run: 'run-a' },
      ]),
    );
    await screen.findByText('Thanks: a thumbs up goes to every agent’s next synthesis');
  });
});
