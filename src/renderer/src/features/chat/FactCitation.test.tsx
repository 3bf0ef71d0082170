/**
 * A chat answer citing a fact of an entity (docs/FACTS.md [K15]) in the real app shell over a fake
 * engine: the chip says it is a fact and whose, and the citation opens the fact's source in the dossier
 * at the words that say it, from the model's answer and from the passages alike.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatSendResult, ChatTurn, FactMemory, InjectedMemory } from '#shared/api/types.ts';
import { fileDossier, fileRow, shellAnswers } from '../../test/canned.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';

const AT = '2026-03-10T09:00:00.000Z';
const ROWS = [fileRow(1), fileRow(2, { label: 'inv2.md' })];
const citationOf = (n: number) => ({
  itemId: `file-${n}`,
  fileId: `file-${n}`,
  fileLabel: ROWS[n - 1]?.label ?? '',
  blob: `blob-${n}`,
  locator: null,
});
const FACT: FactMemory = {
  id: 'e_00000000000000000001.0123456789ab',
  entityId: 'e_00000000000000000001',
  entity: 'Acme Paper',
  statement: 'A box of paper costs EUR 12.',
  validAt: '2026-03-10',
  source: 'file-2',
  sourceLabel: 'inv2.md',
  span: { start: 4, end: 11 },
};
const MEMORIES: InjectedMemory[] = [
  {
    id: 'file-1',
    label: 'note-01.md',
    storageKind: 'file',
    kind: 'markdown',
    citation: citationOf(1),
    score: 0.03,
  },
  {
    id: FACT.id,
    label: 'Acme Paper',
    storageKind: 'entity',
    kind: 'fact',
    citation: citationOf(2),
    score: null,
    fact: FACT,
  },
];

function answer(patch: Partial<ChatTurn>): ChatSendResult {
  const turn = (role: 'user' | 'assistant', text: string): ChatTurn => ({
    id: `${role}-1`,
    role,
    text,
    at: AT,
    memories: [],
    reason: null,
    modelOff: false,
    modelError: null,
    passages: [],
  });
  return {
    thread: { id: 'thread-1', title: 'What does Acme Paper charge?', updatedAt: AT, turns: 2 },
    user: turn('user', 'What does Acme Paper charge?'),
    answer: { ...turn('assistant', ''), memories: MEMORIES, ...patch },
  };
}

function engine(result: ChatSendResult) {
  const t = fakeTransport(shellAnswers(ROWS));
  t.answer('chat.threads', () => ({ threads: [result.thread] }));
  t.answer('chat.send', () => result);
  t.answer('chat.thread', () => ({ ...result.thread, messages: [result.user, result.answer] }));
  t.answer('items.dossier', (input) => {
    const row = ROWS.find((r) => r.id === input.id);
    if (!row) throw new Error(`no row ${input.id}`);
    const d = fileDossier(row);
    return { ...d, highlight: input.at ?? null };
  });
  return t;
}

async function ask(t: ReturnType<typeof engine>) {
  const { user } = renderApp(t);
  await user.click(
    within(await screen.findByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Chat' }),
  );
  await user.type(
    await screen.findByRole('textbox', { name: 'Message' }),
    'What does Acme Paper charge?{Enter}',
  );
  return { user, turn: await screen.findByRole('article', { name: 'Answer' }) };
}

describe('A fact cited in a chat answer', () => {
  it('is a chip marked as a fact of its entity, and its [n] opens the source at the fact', async () => {
    const t = engine(answer({ text: 'A box costs EUR 12 [2], as the notes say [1].' }));
    const { user, turn } = await ask(t);

    const chips = within(turn).getByRole('list', { name: 'Memories used' });
    const chip = within(chips).getByRole('button', { name: 'Memory 2: fact about Acme Paper, from inv2.md' });
    expect(chip.textContent).toBe('2factAcme Paper');
    expect(chip.getAttribute('title')).toBe('Acme Paper: A box of paper costs EUR 12. · inv2.md');
    within(chips).getByRole('button', { name: 'Memory 1: note-01.md' });

    await user.click(
      within(turn).getByRole('button', { name: 'Open citation 2: fact about Acme Paper, from inv2.md' }),
    );
    const dossier = await screen.findByRole('complementary', { name: 'Dossier' });
    await within(dossier).findByRole('heading', { name: 'inv2.md' });
    await waitFor(() => expect(t.inputsOf('items.dossier').at(-1)).toEqual({ id: 'file-2', at: FACT.span }));

    // Any other citation opens its own range, as before.
    await user.click(within(turn).getByRole('button', { name: 'Open citation 1: note-01.md' }));
    await waitFor(() => expect(t.inputsOf('items.dossier').at(-1)).toEqual({ id: 'file-1' }));
  });

  it('with the chat model off, is a passage marked as a fact that opens its source at the fact', async () => {
    const t = engine(
      answer({
        modelOff: true,
        text: 'The chat model is off, so here is the passage the brain found.',
        memories: [MEMORIES[1] as InjectedMemory],
        passages: [
          {
            itemId: 'file-2',
            label: 'Acme Paper',
            text: 'Acme Paper: A box of paper costs EUR 12. (valid 2026-03-10)',
            highlights: [],
            citation: citationOf(2),
            fact: FACT,
          },
        ],
      }),
    );
    const { user, turn } = await ask(t);
    const link = within(turn).getByRole('button', {
      name: 'Open citation 1: fact about Acme Paper, from inv2.md',
    });
    expect(link.textContent).toBe('1factAcme Paperfrom inv2.md');
    within(turn).getByText('Acme Paper: A box of paper costs EUR 12. (valid 2026-03-10)');
    await user.click(link);
    await waitFor(() => expect(t.inputsOf('items.dossier').at(-1)).toEqual({ id: 'file-2', at: FACT.span }));
  });
});

describe('A memory that stands for its whole source (docs/RETRIEVAL.md [R6])', () => {
  it('says how many more passages of that file matched, and each opens its own range', async () => {
    const also = (n: number) => ({
      id: `section-${n}`,
      label: `note-01.md > Part ${n}`,
      citation: { ...citationOf(1), itemId: `section-${n}`, lineStart: n * 10, lineEnd: n * 10 + 3 },
    });
    const folded: InjectedMemory = { ...(MEMORIES[0] as InjectedMemory), more: 3, also: [also(2), also(3)] };
    const t = engine(answer({ text: 'As the notes say [1].', memories: [folded] }));
    t.answer('items.dossier', (input) => ({
      ...fileDossier(ROWS[0] as (typeof ROWS)[0]),
      highlight: input.at ?? null,
    }));
    const { user, turn } = await ask(t);
    const summary = within(turn).getByText(/3 more passages from note-01\.md/);
    await user.click(summary);
    const list = within(turn).getByRole('list', { name: 'More passages from memory 1' });
    const items = within(list).getAllByRole('button');
    expect(items).toHaveLength(2);
    expect(within(list).getByText('and 1 more')).toBeTruthy();
    await user.click(items[1] as HTMLElement);
    await waitFor(() => expect(t.inputsOf('items.dossier').at(-1)).toEqual({ id: 'section-3' }));
  });
});
