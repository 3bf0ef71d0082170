/**
 * The compile pass (docs/FACTS.md [K9]–[K11]) on a real workspace: files from the shared corpus
 * copied into a temporary folder, added and indexed, compiled through the contract's
 * knowledge.compile with the scripted model (every request recorded) standing in for the chat
 * model; pages read back with facts.list.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { setModelSetting } from '../llm/config.ts';
import { findBoundary, splitFenced } from '../read/framing.ts';
import { compileStep, jsonReply, requestText } from '../testing/compile-model.ts';
import { dumpTables } from '../testing/db-dump.ts';
import type { ChatRequest, ScriptedModel, ScriptedReply } from '../testing/scripted-model.ts';
import { startScriptedModel } from '../testing/scripted-model.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { compileSource } from './index.ts';

const CORPUS = '/work/shared/corpus/basecamp-handbook';

let ws: TestWorkspace;
let engine: Engine;
let model: ScriptedModel;
let extractReply: (req: ChatRequest) => ScriptedReply;
let judgeReply: (req: ChatRequest) => ScriptedReply;

beforeEach(async () => {
  ws = createTestWorkspace();
  engine = ws.open();
  extractReply = () => jsonReply({ entities: [], facts: [] });
  judgeReply = () => jsonReply({ decisions: [] });
  model = await startScriptedModel((req) => {
    const step = compileStep(req);
    if (step === 'extract') return extractReply(req);
    if (step === 'judge') return judgeReply(req);
    return { content: 'ok' };
  });
  await setModelSetting(engine.db, ws.home, 'model.baseUrl', model.url);
  await setModelSetting(engine.db, ws.home, 'model.name', 'scripted');
});
afterEach(async () => {
  await model.close();
  await ws.cleanup();
});

type Fact = {
  id: string;
  statement: string;
  attribute: string | null;
  status: string;
  reason: string | null;
  supersededBy: string | null;
  citations: {
    item: { id: string };
    quote: string;
    origin: { actor: string; source: string; run: string };
  }[];
};
type Outcome = {
  id: string;
  state: string;
  facts: number;
  added: number;
  kept: number;
  retired: number;
  entities: number;
  cards: number;
  dropped: number;
  error: string | null;
};

const call = async <T>(name: string, input: unknown) =>
  (await runCommand(memberContext(engine, 'cli'), name, input)) as T;
const compile = async (input: Record<string, unknown> = {}) =>
  (await call<{ model: string; results: Outcome[] }>('knowledge.compile', input)).results;
const page = async (entity: string, history = false) =>
  (await call<{ facts: Fact[] }>('facts.list', { entity, history })).facts;

async function addFile(name: string, text: string, scope?: string): Promise<string> {
  const result = await engine.add([ws.write(name, text)], scope ? { scope } : {});
  await engine.index();
  const id = result.added[0]?.id;
  if (!id) throw new Error(`${name} was not added`);
  return id;
}

const corpus = (name: string) => readFileSync(`${CORPUS}/${name}`, 'utf8');

function entityId(name: string, scope = 'org'): string {
  const row = engine.db
    .prepare("SELECT id FROM items WHERE storage_kind = 'entity' AND label = ? AND scope = ?")
    .get(name, scope) as { id: string } | undefined;
  if (!row) throw new Error(`no entity ${name} in ${scope}`);
  return row.id;
}

const extractRequests = () => model.requests.filter((r) => compileStep(r) === 'extract');
const judgeRequests = () => model.requests.filter((r) => compileStep(r) === 'judge');
/** Every table of the workspace but those in `skip` (src/engine/testing/db-dump.ts). */
function dumpDatabase(db: Engine['db'], skip: readonly string[] = []) {
  const tables = dumpTables(db);
  for (const name of skip) delete tables[name];
  return tables;
}
/**
 * Everything but the pass's own record, its claim (held while it runs, [K11]) and telemetry: what a
 * failed pass must leave as it was.
 */
const knowledge = () => dumpDatabase(engine.db, ['compile_passes', 'compile_claims', 'telemetry']);

const SYSTEMS = {
  entities: [
    { name: 'Queenbee', kind: 'project' },
    { name: 'Sentry', kind: 'company' },
    { name: 'Kandji', kind: 'company' },
  ],
  facts: [
    {
      entity: 'Queenbee',
      statement: 'Queenbee is the invoice, accounting and identity system.',
      attribute: null,
      validAt: null,
      quote: 'Queenbee is our invoice, accounting, and identity system.',
    },
    {
      entity: 'Sentry',
      statement: 'Programming exceptions are tracked on Sentry.',
      quote: 'We track programming exceptions on Sentry.',
    },
    {
      entity: 'Kandji',
      statement: 'Kandji keeps work Macs securely configured and up to date.',
      attribute: 'role',
      quote: 'is how we make sure all work Mac laptops are securely configured',
    },
    { entity: 'Kandji', statement: 'Kandji was founded in 1850.', quote: 'founded in 1850' },
    { entity: 'Nobody Listed', statement: 'Not an entity of the reply.', quote: 'Queenbee' },
  ],
};

describe('[K9] the compile pass', () => {
  it('[K9] extracts from a real file, writes each fact as a claim from the section that says it, fenced prompts', async () => {
    const file = await addFile('our-internal-systems.md', corpus('our-internal-systems.md'));
    extractReply = () => jsonReply(SYSTEMS);
    const [result] = await compile({ ids: [file] });
    expect(result).toMatchObject({
      id: file,
      state: 'done',
      facts: 3,
      added: 3,
      entities: 3,
      cards: 0,
      dropped: 2,
    });
    // No entity existed: no candidates, so no judge call.
    expect(extractRequests()).toHaveLength(1);
    expect(judgeRequests()).toHaveLength(0);

    const queenbee = entityId('Queenbee');
    const [fact] = await page(queenbee);
    expect(fact?.statement).toBe('Queenbee is the invoice, accounting and identity system.');
    const citation = fact?.citations[0];
    const version = (
      engine.db.prepare('SELECT version FROM items WHERE id = ?').get(file) as { version: number }
    ).version;
    expect(citation?.origin).toMatchObject({
      actor: `compile/user:${engine.user}`,
      source: 'compile',
      run: `compile:${file}:${version}`,
    });
    const section = engine.db
      .prepare('SELECT file_id, body FROM items WHERE id = ?')
      .get(citation?.item.id) as {
      file_id: string;
      body: string;
    };
    expect(section.file_id).toBe(file);
    expect(section.body).toContain(citation?.quote);
    expect((await page(entityId('Kandji')))[0]).toMatchObject({ attribute: 'role' });

    // The source reaches the model fenced by the call's boundary, each section with its id.
    const req = extractRequests()[0] as ChatRequest;
    const system = String(req.messages[0]?.content);
    expect(system).toContain('in the language of the source');
    const token = findBoundary(system) ?? '';
    expect(token).toMatch(/^[0-9a-f]{16}$/);
    const split = splitFenced(String(req.messages[1]?.content), token);
    expect(split.balanced).toBe(true);
    expect(split.outside).not.toContain('Queenbee is our invoice');
    expect(
      split.fences.some((f) => f.attrs.id === citation?.item.id && f.text.includes(citation?.quote ?? '?')),
    ).toBe(true);
  });

  it('[K9] a quote the source does not hold is left out, a whitespace-different quote is found as the source writes it, a repeat is one claim', async () => {
    const note = (
      await call<{ id: string }>('notes.add', {
        kind: 'fact',
        label: 'Supplier',
        body: 'Acme Paper   supplies\nour office paper.',
      })
    ).id;
    extractReply = () =>
      jsonReply({
        entities: [{ name: 'Acme Paper', kind: 'company' }],
        facts: [
          {
            entity: 'Acme Paper',
            statement: 'Acme Paper supplies the office paper.',
            quote: 'Acme Paper supplies our office paper.',
          },
          { entity: 'Acme Paper', statement: 'Acme Paper is in Lisbon.', quote: 'in Lisbon' },
          // A repeat of the first fact: one claim.
          {
            entity: 'ACME PAPER',
            statement: 'Acme Paper  supplies the office paper.',
            quote: 'Acme Paper supplies',
          },
        ],
      });
    const [result] = await compile({ ids: [note] });
    expect(result).toMatchObject({ state: 'done', facts: 1, dropped: 1 });
    const [fact] = await page(entityId('Acme Paper'));
    expect(fact?.citations[0]?.quote).toBe('Acme Paper   supplies\nour office paper.');
  });

  it('[K9] a name the model splits across lines, or writes with control characters, is stored as one line', async () => {
    const note = (
      await call<{ id: string }>('notes.add', {
        kind: 'fact',
        label: 'Supplier',
        body: 'Acme Paper supplies our paper.',
      })
    ).id;
    extractReply = () =>
      jsonReply({
        entities: [{ name: 'Acme\n Paper\u001b', kind: 'company' }],
        facts: [
          {
            entity: 'Acme\nPaper',
            statement: 'Acme Paper supplies the paper.',
            quote: 'Acme Paper supplies',
          },
        ],
      });
    const [result] = await compile({ ids: [note] });
    expect(result).toMatchObject({ state: 'done', facts: 1, dropped: 0 });
    const names = engine.db.prepare("SELECT label FROM items WHERE storage_kind = 'entity'").all() as {
      label: string;
    }[];
    expect(names.map((n) => n.label)).toEqual(['Acme Paper']);
    expect(await page(entityId('Acme Paper'))).toHaveLength(1);
  });
});

describe('[K9] a model that fails changes nothing', () => {
  const failures: [string, () => ScriptedReply][] = [
    ['an HTTP error', () => ({ status: 500, error: 'the model is down' })],
    ['a reply that is not JSON', () => ({ content: 'Sure! Here are the entities: Queenbee, Sentry.' })],
    [
      'JSON of another shape',
      () => jsonReply({ entities: [{ name: 'Queenbee', kind: 'product' }], facts: [] }),
    ],
    [
      'a validAt that is no date',
      () => jsonReply({ ...SYSTEMS, facts: [{ ...SYSTEMS.facts[0], validAt: 'last spring' }] }),
    ],
  ];
  for (const [what, reply] of failures) {
    it(`[K9] extract: ${what}`, async () => {
      const file = await addFile('systems.md', corpus('our-internal-systems.md'));
      const before = knowledge();
      extractReply = reply;
      const [result] = await compile({ ids: [file] });
      expect(result?.state).toBe('failed');
      expect(result?.error).toMatch(/^extract: /);
      expect(knowledge()).toEqual(before);
      const pass = engine.db.prepare('SELECT state, error FROM compile_passes WHERE source_id = ?').get(file);
      expect(pass).toMatchObject({ state: 'failed', error: expect.stringMatching(/^extract: /) });
    });
  }

  it('[K9] extract: a model that never answers (timeout)', async () => {
    const file = await addFile('systems.md', corpus('our-internal-systems.md'));
    const before = knowledge();
    extractReply = () => ({ hang: true });
    const access = { baseUrl: model.url, model: 'scripted', key: null };
    const result = await compileSource(engine, access, file, { timeoutMs: 300 });
    expect(result?.state).toBe('failed');
    expect(knowledge()).toEqual(before);
  });

  const judgeFailures: [string, () => ScriptedReply][] = [
    ['an HTTP error', () => ({ status: 503, error: 'overloaded' })],
    ['bad JSON', () => ({ content: '{"decisions": [' })],
    [
      'a choice that is no candidate',
      () => jsonReply({ decisions: [{ n: 1, choice: 'e_00000000000000000000' }] }),
    ],
    ['an entity left undecided', () => jsonReply({ decisions: [] })],
  ];
  for (const [what, reply] of judgeFailures) {
    it(`[K9] judge: ${what}`, async () => {
      // "Sentri" is known in org, a name near "Sentry": the judge is asked about it.
      const known = await addFile('known.md', '# Vendors\n\nSentri handles our error reports.\n');
      await call('facts.state', {
        entity: 'Sentri',
        kind: 'company',
        statement: 'Sentri handles error reports.',
        item_id: sectionOf(known),
        quote: 'Sentri handles our error reports.',
      });
      const file = await addFile('systems.md', corpus('our-internal-systems.md'));
      const before = knowledge();
      extractReply = () => jsonReply(SYSTEMS);
      judgeReply = reply;
      const [result] = await compile({ ids: [file] });
      expect(judgeRequests()).toHaveLength(1);
      expect(result?.state).toBe('failed');
      expect(result?.error).toMatch(/^judge: /);
      expect(knowledge()).toEqual(before);
    });
  }
});

function sectionOf(file: string): string {
  return (
    engine.db
      .prepare("SELECT id FROM items WHERE file_id = ? AND storage_kind = 'section' ORDER BY ordinal LIMIT 1")
      .get(file) as { id: string }
  ).id;
}

describe('[K11] recompiling is a diff', () => {
  it('[K11] identical content changes nothing: skipped without a model call, and a forced pass touches no row', async () => {
    const path = ws.write('systems.md', corpus('our-internal-systems.md'));
    const file = (await engine.add([path])).added[0]?.id ?? '';
    await engine.index();
    extractReply = () => jsonReply(SYSTEMS);
    await compile({ ids: [file] });
    const asked = model.requests.length;

    // The same bytes again: the file is unchanged (adding logs its own telemetry row first).
    expect((await engine.add([path])).unchanged).toHaveLength(1);
    await engine.index();
    const whole = dumpDatabase(engine.db);
    expect(await compile()).toEqual([]);
    const [again] = await compile({ ids: [file] });
    expect(again).toMatchObject({ state: 'skipped', facts: 3 });
    expect(model.requests.length).toBe(asked);
    expect(dumpDatabase(engine.db)).toEqual(whole);

    const [forced] = await compile({ ids: [file], force: true });
    expect(forced).toMatchObject({ state: 'done', facts: 3, added: 0, kept: 3, retired: 0 });
    expect(model.requests.length).toBe(asked + 1);
    // Only the pass's own record (its time) and its telemetry row moved.
    const skipChanging = (d: ReturnType<typeof dumpDatabase>) => ({
      ...d,
      compile_passes: [],
      telemetry: [],
    });
    expect(skipChanging(dumpDatabase(engine.db))).toEqual(skipChanging(whole));
  });

  it('[K11] [K4] a new version keeps what it still says, retires what it no longer says, and a new price replaces the old', async () => {
    const invoice = (price: string, date: string) =>
      `# Invoice\n\nSupplier: Acme Paper Ltd. Date: ${date}.\n\nAcme Paper supplies our office paper.\n\nPrice per box: ${price}.\n\nDelivery within 3 days.\n`;
    const path = ws.write('invoice.md', invoice('EUR 10', '2026-01-10'));
    const file = (await engine.add([path])).added[0]?.id ?? '';
    await engine.index();
    const reply = (price: string, date: string, delivery: boolean) => () =>
      jsonReply({
        entities: [{ name: 'Acme Paper Ltd.', kind: 'company' }],
        facts: [
          {
            entity: 'Acme Paper Ltd.',
            statement: 'Acme Paper supplies the office paper.',
            quote: 'Acme Paper supplies our office paper.',
          },
          {
            entity: 'Acme Paper Ltd.',
            statement: `A box of paper costs ${price}.`,
            attribute: 'price',
            validAt: date,
            quote: `Price per box: ${price}.`,
          },
          ...(delivery
            ? [
                {
                  entity: 'Acme Paper Ltd.',
                  statement: 'Acme Paper delivers within 3 days.',
                  quote: 'Delivery within 3 days.',
                },
              ]
            : []),
        ],
      });
    extractReply = reply('EUR 10', '2026-01-10', true);
    await compile({ ids: [file] });
    const acme = entityId('Acme Paper Ltd.');
    const supplies = (await page(acme)).find((f) => f.statement.includes('supplies'));
    const claimOf = (statement: string) =>
      engine.db
        .prepare(
          "SELECT * FROM edges WHERE type = 'FACT' AND to_id = ? AND json_extract(props, '$.statement') = ?",
        )
        .all(acme, statement);
    const suppliesBefore = claimOf('Acme Paper supplies the office paper.');
    expect(suppliesBefore).toHaveLength(1);

    ws.write('invoice.md', invoice('EUR 12', '2026-03-10').replace('Delivery within 3 days.\n', ''));
    await engine.add([path]);
    await engine.index();
    extractReply = reply('EUR 12', '2026-03-10', false);
    const [second] = await compile();
    expect(second).toMatchObject({ id: file, state: 'done', added: 1, kept: 1, retired: 2 });

    // The claim the new version still makes (its words are in the live section) is the same row.
    expect(claimOf('Acme Paper supplies the office paper.')).toEqual(suppliesBefore);
    expect(claimOf('A box of paper costs EUR 10.')).toMatchObject([{ retired_at: expect.any(String) }]);
    const current = await page(acme);
    expect(current.map((f) => f.statement).sort()).toEqual([
      'A box of paper costs EUR 12.',
      'Acme Paper supplies the office paper.',
    ]);
    expect(current.find((f) => f.statement === supplies?.statement)?.id).toBe(supplies?.id);
    const history = await page(acme, true);
    const price = current.find((f) => f.attribute === 'price');
    expect(history.find((f) => f.statement === 'A box of paper costs EUR 10.')).toMatchObject({
      status: 'retired',
    });
    expect(history.find((f) => f.statement === 'Acme Paper delivers within 3 days.')).toMatchObject({
      status: 'retired',
    });
    expect(price?.status).toBe('current');
  });

  it('[K4] a newer source contradicting an attribute retires the old fact, which points to the new one', async () => {
    const first = await addFile('inv1.md', '# Invoice 1\n\nAcme Paper: price per box EUR 10, 2026-01-10.\n');
    const second = await addFile('inv2.md', '# Invoice 2\n\nAcme Paper: price per box EUR 12, 2026-03-10.\n');
    extractReply = (req) => {
      const price = requestText(req).includes('EUR 12') ? 'EUR 12' : 'EUR 10';
      const date = price === 'EUR 12' ? '2026-03-10' : '2026-01-10';
      return jsonReply({
        entities: [{ name: 'Acme Paper', kind: 'company' }],
        facts: [
          {
            entity: 'Acme Paper',
            statement: `A box costs ${price}.`,
            attribute: 'price',
            validAt: date,
            quote: `price per box ${price}`,
          },
        ],
      });
    };
    await compile({ ids: [first] });
    await compile({ ids: [second] });
    // The second compile found the entity by its exact name: no judge call.
    expect(judgeRequests()).toHaveLength(0);
    const acme = entityId('Acme Paper');
    const history = await page(acme, true);
    const newer = history.find((f) => f.statement === 'A box costs EUR 12.');
    expect(newer?.status).toBe('current');
    expect(history.find((f) => f.statement === 'A box costs EUR 10.')).toMatchObject({
      status: 'retired',
      reason: 'superseded',
      supersededBy: newer?.id,
    });
  });
});

describe('[K11] who compiles, and the lock', () => {
  it("[K11] another member's source is refused when named and never waits for a pass", async () => {
    engine.db.prepare("INSERT INTO users (id, name, created_at) VALUES ('bob', 'Bob', '2026-01-01')").run();
    const { upsertNote } = await import('../knowledge/notes.ts');
    const bobs = upsertNote(engine.db, engine.workspaceId, {
      kind: 'fact',
      label: "Bob's note",
      body: 'Queenbee is our invoice system.',
      scope: 'org',
      actor: 'agent:claude/user:bob',
      source: 'agent',
    });
    const before = knowledge();
    await expect(compile({ ids: [bobs.id] })).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringContaining(`${bobs.id} (Bob's note) was added by bob`),
    });
    expect(await compile()).toEqual([]);
    expect(await compile({ ids: [bobs.id], auto: true })).toEqual([]);
    expect(model.requests).toHaveLength(0);
    expect(knowledge()).toEqual(before);
  });

  it('[K11] a source changed while its model calls ran drops the result; it waits for its next pass', async () => {
    const note = (
      await call<{ id: string }>('notes.add', {
        kind: 'fact',
        label: 'Keys',
        body: 'Dana keeps the keys.',
        source_key: 'keys',
      })
    ).id;
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    extractReply = () => ({
      after: held,
      reply: jsonReply({
        entities: [{ name: 'Dana', kind: 'person' }],
        facts: [{ entity: 'Dana', statement: 'Dana keeps the keys.', quote: 'Dana keeps the keys.' }],
      }),
    });
    const running = compile({ ids: [note] });
    await new Promise((r) => setTimeout(r, 100));
    await call('notes.add', {
      kind: 'fact',
      label: 'Keys',
      body: 'Dana keeps the keys. Sam has a copy.',
      source_key: 'keys',
    });
    const before = knowledge();
    release();
    const [result] = await running;
    expect(result?.state).toBe('stale');
    expect(knowledge()).toEqual(before);
    expect(engine.db.prepare('SELECT * FROM compile_passes').all()).toEqual([]);
    expect(engine.db.prepare('SELECT * FROM compile_claims').all()).toEqual([]);
    const [next] = await compile();
    expect(next).toMatchObject({ id: note, state: 'done', facts: 1 });
  });

  it('[K9] bad ids are refused before any model call, naming the item and the reason', async () => {
    const file = await addFile('systems.md', corpus('our-internal-systems.md'));
    await expect(compile({ ids: [file, sectionOf(file)] })).rejects.toMatchObject({
      code: 'validation-failed',
      message: expect.stringContaining(`is a section: compile its file ${file}`),
    });
    await expect(compile({ ids: ['n_00000000000000000000'] })).rejects.toMatchObject({ code: 'not-found' });
    expect(model.requests).toHaveLength(0);
  });

  it('[K9] without a chat model it says one is needed', async () => {
    await setModelSetting(engine.db, ws.home, 'model.baseUrl', '');
    await expect(compile()).rejects.toMatchObject({
      code: 'unsupported',
      message: expect.stringContaining('brain config'),
    });
  });
});
