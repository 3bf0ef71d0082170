/**
 * [K15] Chat cites facts (docs/FACTS.md): a question that names an entity is given that entity's
 * current facts as numbered memories, fenced like any memory ([F1]), never a retired fact nor one
 * from a scope the asker cannot see; an answer citing a fact's number cites the fact's source range.
 * Through the host, with the scripted chat model.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatSendResult, Dossier } from '#shared/api/types.ts';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { BrainHost } from '../host/host.ts';
import { findBoundary, splitFenced } from '../read/framing.ts';
import {
  type ChatRequest,
  roleOf,
  type ScriptedModel,
  startScriptedModel,
} from '../testing/scripted-model.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { facesNamedIn, factMemories } from './chat-facts.ts';

let ws: TestWorkspace;
let engine: Engine;
let host: BrainHost;
let model: ScriptedModel;

const invoice = (n: number, price: string, date: string) =>
  `# Invoice ${n}\n\nSupplier: Acme Paper Ltd. Date: ${date}.\n\nPrice per box: ${price}.\n`;

async function addFile(name: string, text: string, scope?: string): Promise<string> {
  const result = await engine.add([ws.write(name, text)], scope ? { scope } : {});
  await engine.index();
  const id = result.added[0]?.id;
  if (!id) throw new Error(`${name} was not added`);
  return id;
}

async function state(
  input: Record<string, unknown>,
): Promise<{ fact: { id: string }; entity: { id: string } }> {
  return (await runCommand(memberContext(engine, 'agent'), 'facts.state', input)) as never;
}

async function ok<T>(name: string, input?: unknown): Promise<T> {
  const r = await host.invoke(name, input);
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  return r.data as T;
}

/** The system message of the chat request, and its fences. */
function chatPrompt(req: ChatRequest | undefined) {
  const system = String(req?.messages[0]?.content ?? '');
  return { system, ...splitFenced(system, findBoundary(system) ?? '') };
}

let inv1 = '';
let inv2 = '';
let entity = '';

beforeEach(async () => {
  ws = createTestWorkspace();
  engine = ws.open();
  engine.db.prepare("INSERT INTO teams (id, name, created_at) VALUES ('legal', 'legal', '2026-01-01')").run();
  engine.db.prepare('INSERT INTO team_members (team_id, user_id) VALUES (?, ?)').run('legal', engine.user);
  inv1 = await addFile('inv1.md', invoice(1, 'EUR 10', '2026-01-10'));
  inv2 = await addFile('inv2.md', invoice(2, 'EUR 12', '2026-03-10'));
  const legal = await addFile(
    'legal.md',
    '# Contract\n\nAcme Paper contract ends in June 2027.\n',
    'team:legal',
  );
  for (const [id, price, date] of [
    [inv1, 'EUR 10', '2026-01-10'],
    [inv2, 'EUR 12', '2026-03-10'],
  ] as const) {
    const r = await state({
      entity: 'Acme Paper Ltd.',
      kind: 'company',
      statement: `A box of paper costs ${price}.`,
      attribute: 'price',
      item_id: id,
      quote: `Price per box: ${price}`,
      valid_at: date,
    });
    entity = r.entity.id;
  }
  await state({
    entity: 'Acme Paper Ltd.',
    kind: 'company',
    statement: 'The Acme Paper contract ends in June 2027.',
    item_id: legal,
    quote: 'Acme Paper contract ends in June 2027.',
  });
  // The asker leaves the legal team: its face of Acme Paper, and that fact, are out of sight now.
  engine.db.prepare('DELETE FROM team_members WHERE team_id = ? AND user_id = ?').run('legal', engine.user);

  // The model cites the fenced fact that says EUR 12, by the number its markers carry.
  model = await startScriptedModel((req) => {
    if (roleOf(req) !== 'chat') return { content: 'OK' };
    const fact = chatPrompt(req).fences.find((f) => f.attrs.kind === 'fact' && f.text.includes('EUR 12'));
    return { content: fact ? `A box costs EUR 12 [${fact.attrs.n}].` : 'The brain holds nothing on it.' };
  });
  host = await BrainHost.start(engine, { version: 'test' });
});
afterEach(async () => {
  await host.close();
  await model.close();
  await ws.cleanup();
});

describe('[K15] chat cites facts', () => {
  it('gives the current fact of the entity the question names, and its citation opens the source range', async () => {
    await ok('chatModel.set', { baseUrl: model.url, model: 'scripted' });
    const r = await ok<ChatSendResult>('chat.send', { message: 'What does ACME paper charge for a box?' });

    const { system, fences, outside, balanced } = chatPrompt(
      model.requests.find((q) => roleOf(q) === 'chat'),
    );
    expect(balanced).toBe(true);
    expect(outside).toMatch(/Answer in the language of the question/);
    const facts = fences.filter((f) => f.attrs.kind === 'fact');
    expect(facts.map((f) => f.text.trim().split('\n').at(-1))).toEqual([
      'Acme Paper Ltd.: A box of paper costs EUR 12. (valid 2026-03-10)',
    ]);
    expect(facts[0]?.text).toContain('Fact about Acme Paper Ltd., from Invoice 2');
    // The superseded price and the legal team's fact are never given.
    expect(system).not.toContain('A box of paper costs EUR 10.');
    expect(system).not.toContain('June 2027');

    // The answer's [n] is the fact: its memory cites the invoice, at the words that say it.
    const n = Number(/\[(\d+)\]/.exec(r.answer.text)?.[1]);
    const cited = r.answer.memories[n - 1];
    expect(cited).toMatchObject({
      kind: 'fact',
      label: 'Acme Paper Ltd.',
      citation: { itemId: inv2, fileLabel: 'Invoice 2' },
      fact: { entityId: entity, entity: 'Acme Paper Ltd.', source: inv2, validAt: '2026-03-10' },
    });
    expect(facts[0]?.attrs).toEqual({ n: String(n), id: cited?.id, kind: 'fact' });
    const dossier = await ok<Dossier>('items.dossier', { id: cited?.fact?.source, at: cited?.fact?.span });
    expect(dossier.text?.slice(dossier.highlight?.start, dossier.highlight?.end)).toBe(
      'Price per box: EUR 12',
    );

    // The thread keeps the fact memory as it was answered.
    const thread = await ok<{ messages: ChatSendResult['answer'][] }>('chat.thread', { id: r.thread.id });
    expect(thread.messages.at(-1)?.memories[n - 1]?.fact).toEqual(cited?.fact);
  });

  it('gives no fact when the question names no entity, and a removed source takes its fact away', async () => {
    const scopes = engine.scopes();
    expect(factMemories(engine.db, scopes, 'What does paper cost?')).toEqual([]);
    expect(facesNamedIn(engine.db, scopes, 'Is Acme Paper, Inc. cheaper now?').map((f) => f.id)).toEqual([
      entity,
    ]);
    await ok('items.remove', { id: inv2 });
    // The older price is current again ([K4]), cited from the first invoice.
    expect(
      factMemories(engine.db, scopes, 'acme paper prices').map((m) => [m.body, m.citation?.itemId]),
    ).toEqual([['Acme Paper Ltd.: A box of paper costs EUR 10. (valid 2026-01-10)', inv1]]);
  });

  it('with the model off, shows the fact as a passage that opens its source', async () => {
    const r = await ok<ChatSendResult>('chat.send', { message: 'What does Acme Paper charge for a box?' });
    expect(r.answer.modelOff).toBe(true);
    const passage = r.answer.passages.find((p) => p.fact);
    expect(passage).toMatchObject({
      itemId: inv2,
      label: 'Acme Paper Ltd.',
      text: 'Acme Paper Ltd.: A box of paper costs EUR 12. (valid 2026-03-10)',
      fact: { source: inv2, sourceLabel: 'inv2.md' },
    });
    expect(r.answer.passages.filter((p) => p.fact)).toHaveLength(1);
  });
});
