/**
 * Resolve and judge (docs/FACTS.md [K10]) on a real workspace: candidates only among the faces a
 * source's readers can read (asserted on every request the scripted model recorded), exact names
 * resolved without asking, the judge's choice followed, and a Possible duplicate card instead of a
 * guess. Faces of two scopes never consolidate.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { setModelSetting } from '../llm/config.ts';
import { compileStep, jsonReply, judgeAsked, requestText } from '../testing/compile-model.ts';
import type { ChatRequest, ScriptedModel, ScriptedReply } from '../testing/scripted-model.ts';
import { startScriptedModel } from '../testing/scripted-model.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { CLOSE_SIMILARITY, isClose, similarity } from './resolve.ts';

let ws: TestWorkspace;
let engine: Engine;
let model: ScriptedModel;
let extractReply: (req: ChatRequest) => ScriptedReply;
let judgeReply: (req: ChatRequest) => ScriptedReply;

beforeEach(async () => {
  ws = createTestWorkspace();
  engine = ws.open();
  engine.db
    .prepare("INSERT INTO teams (id, name, created_at) VALUES ('finance', 'Finance', '2026-01-01')")
    .run();
  engine.db.prepare("INSERT INTO team_members (team_id, user_id) VALUES ('finance', ?)").run(engine.user);
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

type Outcome = { id: string; state: string; facts: number; added: number; entities: number; cards: number };
type Fact = { statement: string; citations: { item: { id: string; scope: string } }[] };

const call = async <T>(name: string, input: unknown) =>
  (await runCommand(memberContext(engine, 'cli'), name, input)) as T;
const compile = async (ids: string[]) =>
  (await call<{ results: Outcome[] }>('knowledge.compile', { ids })).results;
const page = async (entity: string) => (await call<{ facts: Fact[] }>('facts.list', { entity })).facts;

async function addFile(name: string, text: string, scope?: string): Promise<string> {
  const result = await engine.add([ws.write(name, text)], scope ? { scope } : {});
  await engine.index();
  const id = result.added[0]?.id;
  if (!id) throw new Error(`${name} was not added`);
  return id;
}

function sectionOf(file: string): string {
  return (
    engine.db
      .prepare("SELECT id FROM items WHERE file_id = ? AND storage_kind = 'section' ORDER BY ordinal LIMIT 1")
      .get(file) as { id: string }
  ).id;
}

/** States a fact by hand ([K6]): how the workspace knows an entity before the compile. */
async function known(name: string, kind: string, text: string, scope?: string): Promise<string> {
  const file = await addFile(
    `${name.replace(/\W+/g, '-')}-${scope ?? 'org'}.md`,
    `# ${name}\n\n${text}\n`,
    scope,
  );
  const out = await call<{ entity: { id: string } }>('facts.state', {
    entity: name,
    kind,
    statement: text,
    item_id: sectionOf(file),
    quote: text,
  });
  return out.entity.id;
}

/** One entity with one fact, quoted from the source. */
const says = (name: string, kind: string, statement: string, quote: string) => () =>
  jsonReply({ entities: [{ name, kind }], facts: [{ entity: name, statement, quote }] });

const claimsTo = (entity: string) =>
  engine.db.prepare("SELECT id FROM edges WHERE type = 'FACT' AND to_id = ?").all(entity) as { id: string }[];

describe('[K10] resolve only among readable faces', () => {
  it('[K10] a team-scoped name never reaches a prompt when an org source names something like it', async () => {
    const hidden = await known(
      'Zorblaxx Quantum Holdings GmbH',
      'company',
      'Zorblaxx Quantum Holdings GmbH is being acquired in secret.',
      'team:finance',
    );
    const visible = await known('Zorblax Quantum Labs', 'company', 'Zorblax Quantum Labs rents our lab.');
    const source = await addFile('vendors.md', '# Vendors\n\nZorblax Quantum delivers the cryostats.\n');
    extractReply = says(
      'Zorblax Quantum',
      'company',
      'Zorblax Quantum delivers the cryostats.',
      'Zorblax Quantum delivers the cryostats.',
    );
    judgeReply = (req) => {
      const [asked] = judgeAsked(req);
      return jsonReply({ decisions: [{ n: 1, choice: asked?.candidates[0] ?? 'new' }] });
    };
    const [result] = await compile([source]);
    expect(result).toMatchObject({ state: 'done', facts: 1, cards: 0 });

    const judged = model.requests.filter((r) => compileStep(r) === 'judge');
    expect(judged).toHaveLength(1);
    expect(judgeAsked(judged[0] as ChatRequest)).toEqual([
      { n: 1, name: 'Zorblax Quantum', candidates: [visible] },
    ]);
    for (const req of model.requests) {
      const text = requestText(req);
      expect(text).not.toContain('Zorblaxx');
      expect(text).not.toContain('acquired in secret');
      expect(text).not.toContain(hidden);
    }
    // The fact went to the org face the judge chose; the team face is as it was.
    expect((await page(visible)).map((f) => f.statement)).toContain(
      'Zorblax Quantum delivers the cryostats.',
    );
    expect(claimsTo(hidden)).toHaveLength(1);
    const aliases = (
      engine.db.prepare('SELECT body FROM items WHERE id = ?').get(visible) as { body: string }
    ).body;
    expect(aliases.split('\n')).toEqual(['Zorblax Quantum Labs', 'Zorblax Quantum']);
  });

  it('[K10] an exact name or alias in scope resolves without the judge, the own scope before org', async () => {
    const org = await known('Acme Paper Ltd', 'company', 'Acme Paper Ltd supplies paper.');
    const team = await known('Acme Paper', 'company', 'Acme Paper bills the finance team.', 'team:finance');
    const teamSource = await addFile(
      'team.md',
      '# Paper\n\nACME PAPER, INC. raised its prices.\n',
      'team:finance',
    );
    extractReply = says(
      'ACME PAPER, INC.',
      'company',
      'Acme Paper raised its prices.',
      'ACME PAPER, INC. raised its prices.',
    );
    await compile([teamSource]);
    const orgSource = await addFile('org.md', '# Paper\n\nAcme Paper Ltd. delivers on Mondays.\n');
    extractReply = says(
      'Acme Paper Ltd.',
      'company',
      'Acme Paper delivers on Mondays.',
      'Acme Paper Ltd. delivers on Mondays.',
    );
    await compile([orgSource]);
    expect(model.requests.filter((r) => compileStep(r) === 'judge')).toHaveLength(0);
    expect((await page(team)).map((f) => f.statement)).toContain('Acme Paper raised its prices.');
    expect((await page(org)).map((f) => f.statement)).toContain('Acme Paper delivers on Mondays.');
  });

  it('[K10] two scopes never consolidate: a team source states on its own face, joined to the org one', async () => {
    const org = await known('Acme Paper', 'company', 'Acme Paper supplies our office paper.');
    const teamSource = await addFile(
      'team.md',
      '# Paper\n\nAcme Paper invoices are paid by finance.\n',
      'team:finance',
    );
    extractReply = says(
      'Acme Paper',
      'company',
      'Finance pays the Acme Paper invoices.',
      'Acme Paper invoices are paid by finance.',
    );
    const [result] = await compile([teamSource]);
    expect(result).toMatchObject({ state: 'done', facts: 1, entities: 1 });
    const face = engine.db
      .prepare(
        "SELECT id FROM items WHERE storage_kind = 'entity' AND scope = 'team:finance' AND canonical_value = 'acme paper'",
      )
      .get() as { id: string };
    expect(face.id).not.toBe(org);
    expect((await page(face.id)).map((f) => f.citations.map((c) => c.item.scope))).toEqual([
      ['team:finance'],
    ]);
    expect((await page(org)).flatMap((f) => f.citations.map((c) => c.item.scope))).toEqual(['org']);
    const sameAs = engine.db
      .prepare("SELECT COUNT(*) AS n FROM edges WHERE type = 'SAME_AS' AND from_id = ? AND to_id = ?")
      .get(face.id, org) as { n: number };
    expect(sameAs.n).toBe(1);
  });
});

describe('[K10] the judge, and Possible duplicate cards', () => {
  it("[K10] the judge's choice is followed and the source's name becomes an alias, found exactly next time", async () => {
    const acme = await known('Acme Paper Ltd', 'company', 'Acme Paper Ltd supplies paper.');
    const first = await addFile('a.md', '# Paper\n\nAcme Papers sent the new price list.\n');
    extractReply = says(
      'Acme Papers',
      'company',
      'Acme Papers sent a new price list.',
      'Acme Papers sent the new price list.',
    );
    judgeReply = () => jsonReply({ decisions: [{ n: 1, choice: acme, unsure: false }] });
    expect((await compile([first]))[0]).toMatchObject({ facts: 1, cards: 0 });
    expect((await page(acme)).map((f) => f.statement)).toContain('Acme Papers sent a new price list.');
    const second = await addFile('b.md', '# Paper\n\nAcme Papers ships on Fridays.\n');
    extractReply = says(
      'Acme Papers',
      'company',
      'Acme Papers ships on Fridays.',
      'Acme Papers ships on Fridays.',
    );
    await compile([second]);
    expect(model.requests.filter((r) => compileStep(r) === 'judge')).toHaveLength(1);
    expect((await page(acme)).map((f) => f.statement)).toContain('Acme Papers ships on Fridays.');
  });

  it('[K10] "new" next to a very close name holds the facts on a Possible duplicate card, stating nothing', async () => {
    const sousa = await known('Marta Sousa', 'person', 'Marta Sousa keeps the spare keys.');
    const source = await addFile('cleaning.md', '# Cleaning\n\nMarta Souza signs the cleaning invoices.\n');
    extractReply = says(
      'Marta Souza',
      'person',
      'Marta Souza signs the cleaning invoices.',
      'Marta Souza signs the cleaning invoices.',
    );
    judgeReply = () => jsonReply({ decisions: [{ n: 1, choice: 'new', unsure: false }] });
    const edges = engine.db.prepare('SELECT COUNT(*) AS n FROM edges').get();
    const entities = engine.db.prepare("SELECT COUNT(*) AS n FROM items WHERE storage_kind = 'entity'").get();
    const [result] = await compile([source]);
    expect(result).toMatchObject({ state: 'done', facts: 0, entities: 0, cards: 1 });
    expect(engine.db.prepare('SELECT COUNT(*) AS n FROM edges').get()).toEqual(edges);
    expect(engine.db.prepare("SELECT COUNT(*) AS n FROM items WHERE storage_kind = 'entity'").get()).toEqual(
      entities,
    );
    const cards = engine.db.prepare("SELECT * FROM review_cards WHERE kind = 'duplicate'").all() as {
      source_id: string;
      state: string;
      payload: string;
    }[];
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ source_id: source, state: 'pending' });
    const payload = JSON.parse(cards[0]?.payload ?? '{}');
    expect(payload).toMatchObject({
      name: 'Marta Souza',
      kind: 'person',
      candidates: [{ id: sousa, label: 'Marta Sousa' }],
      facts: [
        {
          statement: 'Marta Souza signs the cleaning invoices.',
          attribute: null,
          validAt: null,
          quote: 'Marta Souza signs the cleaning invoices.',
        },
      ],
      origin: { actor: `compile/user:${engine.user}`, source: 'compile' },
    });
  });

  it('[K10] an unsure judge makes a card even when it names a candidate; a far name with "new" is a new entity', async () => {
    const acme = await known('Acme Paper Ltd', 'company', 'Acme Paper Ltd supplies paper.');
    const source = await addFile(
      'c.md',
      '# Paper\n\nAcme Papers raised prices. Acme Printing Works opened a shop.\n',
    );
    extractReply = () =>
      jsonReply({
        entities: [
          { name: 'Acme Papers', kind: 'company' },
          { name: 'Acme Printing Works', kind: 'company' },
        ],
        facts: [
          {
            entity: 'Acme Papers',
            statement: 'Acme Papers raised prices.',
            quote: 'Acme Papers raised prices.',
          },
          {
            entity: 'Acme Printing Works',
            statement: 'Acme Printing Works opened a shop.',
            quote: 'Acme Printing Works opened a shop.',
          },
        ],
      });
    judgeReply = (req) =>
      jsonReply({
        decisions: judgeAsked(req).map((a) =>
          a.name === 'Acme Papers' ? { n: a.n, choice: acme, unsure: true } : { n: a.n, choice: 'new' },
        ),
      });
    const [result] = await compile([source]);
    expect(result).toMatchObject({ facts: 1, entities: 1, cards: 1 });
    expect(claimsTo(acme)).toHaveLength(1);
    const printing = engine.db
      .prepare("SELECT id FROM items WHERE storage_kind = 'entity' AND label = 'Acme Printing Works'")
      .get() as { id: string };
    expect((await page(printing.id)).map((f) => f.statement)).toEqual(['Acme Printing Works opened a shop.']);
  });

  it('[K10] "very close" is the entity list\'s rule: most trigrams shared, or one letter off', () => {
    expect(isClose('marta souza', 'marta sousa', similarity('marta souza', 'marta sousa'))).toBe(true);
    expect(isClose('acme papers', 'acme paper', similarity('acme papers', 'acme paper'))).toBe(true);
    expect(similarity('acme printing works', 'acme paper')).toBeLessThan(CLOSE_SIMILARITY);
    expect(
      isClose('acme printing works', 'acme paper', similarity('acme printing works', 'acme paper')),
    ).toBe(false);
  });
});
