/**
 * `brain inbox`, `brain inbox cards` and `brain inbox resolve` (docs/FACTS.md [K12], [K13]) as
 * scripts use them: real processes on a real workspace. The Possible duplicate card is added as the
 * compile pass adds it (addDuplicateCard in its write transaction), by an engine on the same home.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { writeTx } from '#engine/db/driver.ts';
import type { Engine } from '#engine/engine.ts';
import { addDuplicateCard } from '#engine/knowledge/review-cards.ts';
import { openAsLocalUser } from '#engine/testing/test-engine.ts';
import type { ResolvedCard, ReviewCards } from '#shared/api/ops/inbox.ts';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;

beforeEach(() => {
  ws = cliWorkspace('brain-cards-cli-');
});
afterEach(() => ws.remove());

type Stated = { entity: { id: string }; fact: { id: string } };

/** The local member's engine on the CLI's home: the world is made in this process (fewer processes). */
function local(): Engine {
  return openAsLocalUser('tester', { home: ws.home, modelDir: ws.modelDir });
}

/** Two indexed files; an org page "Acme Paper Ltd." stated from the first. */
async function world() {
  writeFileSync(join(ws.files, 'acme.md'), '# Acme\n\nAcme Paper Ltd. is our paper supplier.\n');
  writeFileSync(
    join(ws.files, 'lease.md'),
    '# Lease\n\nAcme Paper supplies our office paper. A box costs EUR 12.\n',
  );
  const engine = local();
  try {
    const added = await engine.add([ws.files]);
    await engine.index();
    const id = (label: string) => added.added.find((a) => a.label === label)?.id as string;
    const stated = (await runCommand(memberContext(engine, 'cli'), 'facts.state', {
      entity: 'Acme Paper Ltd.',
      kind: 'company',
      statement: 'Acme Paper Ltd. is our paper supplier.',
      item_id: id('acme.md'),
      quote: 'Acme Paper Ltd. is our paper supplier.',
    })) as Stated;
    return { acme: id('acme.md'), lease: id('lease.md'), face: stated.entity.id };
  } finally {
    await engine.close();
  }
}

async function addCard(source: string, face: string): Promise<string> {
  const engine = local();
  try {
    const version = (
      engine.db.prepare('SELECT version FROM items WHERE id = ?').get(source) as { version: number }
    ).version;
    return writeTx(engine.db, () =>
      addDuplicateCard(engine.db, engine.workspaceId, {
        source,
        sourceVersion: version,
        name: 'ACME Papers',
        kind: 'company',
        candidates: [{ id: face, label: 'Acme Paper Ltd.', score: 0.81 }],
        facts: [
          {
            statement: 'Acme Papers supplies our office paper.',
            attribute: null,
            validAt: null,
            quote: 'Acme Paper supplies our office paper.',
          },
          {
            statement: 'A box of paper costs EUR 12.',
            attribute: 'price',
            validAt: null,
            quote: 'A box costs EUR 12.',
          },
        ],
        origin: { actor: 'compile/user:tester', source: 'compile', run: `compile:${source}:${version}` },
      }),
    );
  } finally {
    await engine.close();
  }
}

async function statements(face: string): Promise<string[]> {
  const engine = local();
  try {
    const page = (await runCommand(memberContext(engine, 'cli'), 'facts.list', { entity: face })) as {
      facts: { statement: string }[];
    };
    return page.facts.map((f) => f.statement).sort();
  } finally {
    await engine.close();
  }
}

// Each `brain` process takes seconds on a loaded two-core machine.
describe('brain inbox with review cards', { timeout: 240_000 }, () => {
  it('lists a Possible duplicate and resolves it as the same page', async () => {
    const { lease, face } = await world();
    const card = await addCard(lease, face);

    const text = await ws.brainText('inbox');
    expect(text).toContain(
      `${card}  [possible duplicate, pending] ACME Papers  (company, from lease.md, org)`,
    );
    expect(text).toContain(`may be: Acme Paper Ltd. (${face}, 0.81)`);
    expect(text).toContain('- price: A box of paper costs EUR 12.');
    expect(text).toContain('Review cards: 1 possible duplicate, 0 empty pages.');
    const listed = await ws.brainJson<ReviewCards>('inbox', 'cards');
    expect(listed.cards.map((c) => c.id)).toEqual([card]);
    // `brain inbox --json`: inbox.list's fields as they were, and the cards the text lists.
    const whole = await ws.brainJson<{ pending: number; items: unknown[]; cards: ReviewCards['cards'] }>(
      'inbox',
    );
    expect(whole).toMatchObject({ pending: 0, items: [] });
    expect(whole.cards).toEqual(listed.cards);

    const refused = await ws.brain('inbox', 'resolve', card, 'merge');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error\[validation-failed\]: inbox\.resolveCard: action: /);

    const out = await ws.brainText('inbox', 'resolve', card, 'same', face);
    expect(out.trim()).toBe(`resolved: 2 facts stated on Acme Paper Ltd. (${face}, org)`);
    expect(await statements(face)).toEqual([
      'A box of paper costs EUR 12.',
      'Acme Paper Ltd. is our paper supplier.',
      'Acme Papers supplies our office paper.',
    ]);
    const again = await ws.brain('inbox', 'resolve', card, 'dismiss');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`error[conflict]: Review card ${card} is resolved already.\n`);
    expect((await ws.brainJson<ReviewCards>('inbox', 'cards')).cards).toEqual([]);
  });

  it('shows an Empty page after its last source is removed, and dismisses it', async () => {
    const { acme, face } = await world();
    const engine = local();
    await runCommand(memberContext(engine, 'cli'), 'items.remove', { id: acme }).finally(() =>
      engine.close(),
    );
    const text = await ws.brainText('inbox');
    expect(text).toMatch(
      new RegExp(`empty:${face}@\\S+  \\[empty page\\] Acme Paper Ltd\\.  \\(company, org\\)`),
    );
    expect(text).toContain('why: Its last source was removed: acme.md.');
    const [card] = (await ws.brainJson<ReviewCards>('inbox', 'cards', '--kind', 'empty-page')).cards;
    expect(card?.kind).toBe('empty-page');
    const out = await ws.brainJson<ResolvedCard>('inbox', 'resolve', card?.id as string, 'dismiss');
    expect(out).toMatchObject({ kind: 'empty-page', state: 'dismissed', facts: [] });
    expect(await ws.brainText('inbox')).toContain('The inbox is empty.');
  });
});
