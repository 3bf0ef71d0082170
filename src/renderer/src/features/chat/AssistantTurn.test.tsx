/**
 * An answer given without the chat model, in the real app shell over a fake engine: the engine's own
 * words above the passages say whether the model is off or failed, and why it failed (both are
 * `modelOff`; src/engine/chat/chat.ts writes the words), so a failing model never passes for one that is off.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatSendResult, ChatTurn, Passage } from '#shared/api/types.ts';
import { fileRow, shellAnswers } from '../../test/canned.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';

const AT = '2026-03-10T09:00:00.000Z';
const ROWS = [fileRow(1, { state: 'indexed' })];
const CITATION = {
  itemId: 'file-1',
  fileId: 'file-1',
  fileLabel: 'note-01.md',
  blob: 'blob-1',
  locator: null,
};
const PASSAGE: Passage = {
  itemId: 'file-1',
  label: 'note-01.md',
  text: 'Taxis after 22:00 are reimbursed.',
  highlights: [],
  citation: CITATION,
};

function turn(role: 'user' | 'assistant', patch: Partial<ChatTurn> = {}): ChatTurn {
  return {
    id: `${role}-1`,
    role,
    text: 'Are late taxis reimbursed?',
    at: AT,
    memories: [],
    reason: null,
    modelOff: false,
    modelError: null,
    passages: [],
    ...patch,
  };
}

async function ask(answer: Partial<ChatTurn>) {
  const result: ChatSendResult = {
    thread: { id: 'thread-1', title: 'Are late taxis reimbursed?', updatedAt: AT, turns: 2 },
    user: turn('user'),
    answer: turn('assistant', {
      memories: [
        {
          id: 'file-1',
          label: 'note-01.md',
          storageKind: 'file',
          kind: 'markdown',
          citation: CITATION,
          score: 0.1,
        },
      ],
      ...answer,
    }),
  };
  const t = fakeTransport(shellAnswers(ROWS));
  t.answer('chat.threads', () => ({ threads: [result.thread] }));
  t.answer('chat.send', () => result);
  t.answer('chat.thread', () => ({ ...result.thread, messages: [result.user, result.answer] }));
  const { user } = renderApp(t);
  await user.click(
    within(await screen.findByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Chat' }),
  );
  await user.type(
    await screen.findByRole('textbox', { name: 'Message' }),
    'Are late taxis reimbursed?{Enter}',
  );
  return screen.findByRole('article', { name: 'Answer' });
}

describe('An answer without the chat model', () => {
  it('says the chat model failed and why, above the passages the brain found', async () => {
    const text = 'The chat model failed (Connection error.), so here are the passages the brain found.';
    const answer = await ask({ modelOff: true, modelError: 'Connection error.', text, passages: [PASSAGE] });
    // Marked as a failure (the turn's modelError), not styled as the choice of having no model.
    expect(within(answer).getByText(text).closest('.model-off-label--failed')).not.toBeNull();
    within(answer).getByText('Taxis after 22:00 are reimbursed.');
    expect(within(answer).queryByText(/Chat model off/)).toBeNull();
  });

  it('says the chat model is off, in the same place', async () => {
    const text = 'The chat model is off, so here is the passage the brain found.';
    const answer = await ask({ modelOff: true, text, passages: [PASSAGE] });
    expect(within(answer).getByText(text).closest('.model-off-label--failed')).toBeNull();
    within(answer).getByText('Taxis after 22:00 are reimbursed.');
  });

  it('says once why it used no memories', async () => {
    const answer = await ask({
      modelOff: true,
      memories: [],
      reason: 'it was small talk',
      text: 'The brain holds nothing on this (it was small talk).',
    });
    within(answer).getByText('No memories used, because it was small talk.');
    expect(within(answer).getAllByText(/small talk/)).toHaveLength(1);
  });
});
