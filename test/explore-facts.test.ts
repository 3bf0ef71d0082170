/**
 * Dates a fact holds at (docs/FACTS.md [K1], [K4], [K6]) on the command line: `--valid-at` is a
 * calendar date (or an ISO time with its zone). A day that does not exist or words that only
 * look like a date to Date.parse ("hello 1" is 2001-01-01 there) are refused, and nothing is
 * written, not even the entity.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;

beforeEach(() => {
  ws = cliWorkspace('brain-explore-facts-');
});
afterEach(() => ws.remove());

describe('brain fact add --valid-at', () => {
  it('refuses dates that are not dates and writes nothing', async () => {
    const path = join(ws.files, 'acme.md');
    writeFileSync(path, '# Acme\n\nAcme Paper Ltd. Price per box: EUR 12.\n');
    const added = await ws.brainJson<{ added: { id: string }[] }>('add', path);
    const id = added.added[0]?.id ?? '';
    await ws.brain('index');
    const args = (validAt: string) => [
      'fact',
      'add',
      'Acme Paper Ltd.',
      'A box costs EUR 12.',
      '--kind',
      'company',
      '--attribute',
      'price',
      '--item',
      id,
      '--quote',
      'Price per box: EUR 12',
      '--valid-at',
      validAt,
    ];
    const state = (validAt: string) => ws.brain(...args(validAt));
    for (const bad of ['2026-02-30', '2026-06-31', 'hello 1', 'x 2020', '2026-03-10T10:00']) {
      const out = await state(bad);
      expect(out.code, bad).toBe(2);
      expect(out.stderr, bad).toContain(`error[validation-failed]: --valid-at "${bad}" is not a date`);
    }
    expect((await ws.brainJson<{ entities: unknown[] }>('entities')).entities).toEqual([]);

    const day = await state('2026-03-10');
    expect(day.code).toBe(0);
    const instant = await ws.brainJson<{ fact: { validAt: string } }>(...args('2026-03-10T10:00:00+02:00'));
    expect(instant.fact.validAt).toBe('2026-03-10T08:00:00.000Z');
  });
});

describe('brain fact add --span', () => {
  it('refuses a span that cuts a character in two, and writes nothing', async () => {
    const path = join(ws.files, 'party.txt');
    writeFileSync(path, '\u{1F389}\u{1F389} EUR 5 a ticket\n');
    const added = await ws.brainJson<{ added: { id: string }[] }>('add', path);
    const id = added.added[0]?.id ?? '';
    await ws.brain('index');
    const state = (span: string) =>
      ws.brain(
        'fact',
        'add',
        'Party Co',
        'A ticket costs EUR 5.',
        '--kind',
        'company',
        '--item',
        id,
        '--span',
        span,
      );
    for (const span of ['3-8', '1-3', '0-1']) {
      const out = await state(span);
      expect(out.code, span).toBe(2);
      expect(out.stderr, span).toContain(`span ${span} cuts a character of ${id}'s text in two`);
    }
    expect((await ws.brainJson<{ entities: unknown[] }>('entities')).entities).toEqual([]);
    const ok = await ws.brainJson<{ fact: { citations: { quote: string }[] } }>(
      'fact',
      'add',
      'Party Co',
      'A ticket costs EUR 5.',
      '--kind',
      'company',
      '--item',
      id,
      '--span',
      '5-10',
    );
    expect(ok.fact.citations[0]?.quote).toBe('EUR 5');
  });
});

/** acme.md added and indexed: its id. */
async function addAcme(): Promise<string> {
  const path = join(ws.files, 'acme.md');
  writeFileSync(path, '# Acme\n\nAcme Paper Ltd. Price per box: EUR 12.\n');
  const id = (await ws.brainJson<{ added: { id: string }[] }>('add', path)).added[0]?.id ?? '';
  await ws.brain('index');
  return id;
}

/** `brain fact add` of acme.md's price, stated about `entity`. */
const acmeFactArgs = (entity: string, id: string) =>
  [
    'fact',
    'add',
    entity,
    'A box costs EUR 12.',
    '--kind',
    'company',
    '--item',
    id,
    '--quote',
    'EUR 12',
  ] as const;

/** acme.md added and indexed, with the fact "A box costs EUR 12." stated about Acme Paper Ltd. from it. */
async function acmeFact() {
  const id = await addAcme();
  const stated = await ws.brainJson<{ entity: { id: string }; fact: { id: string } }>(
    ...acmeFactArgs('Acme Paper Ltd.', id),
  );
  return { id, stated };
}

describe('brain fact list on a page whose facts are all retired', () => {
  it('says they are in the history, not that there are none', async () => {
    const { id, stated } = await acmeFact();
    await ws.brain('remove', id, '--yes');
    const text = await ws.brainText('fact', 'list', stated.entity.id);
    expect(text).toContain(
      `No current facts about this entity (1 retired: \`brain fact list ${stated.entity.id} --history\``,
    );
  });
});

describe('brain fact retire on a fact retired already, and fact add with an id that is no entity', () => {
  it('refuses both by name and changes nothing', async () => {
    const { id, stated } = await acmeFact();
    await ws.brain('fact', 'retire', stated.fact.id);
    const again = await ws.brain('fact', 'retire', stated.fact.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      `error[conflict]: Fact ${stated.fact.id} ("A box costs EUR 12.") was retired already: nothing changed.`,
    );
    // The file's id as the entity: refused, and no entity named after it.
    const named = await ws.brain('fact', 'add', id, 'A box costs EUR 12.', '--item', id, '--quote', 'EUR 12');
    expect(named.code).toBe(2);
    expect(named.stderr).toContain(`error[validation-failed]: ${id} (acme.md) is a file, not an entity`);
    const entities = await ws.brainJson<{ entities: { label: string }[] }>('entities');
    expect(entities.entities.map((e) => e.label)).toEqual(['Acme Paper Ltd.']);
  });
});

describe('brain fact add with both --quote and --span', () => {
  it('refuses a span that does not hold the quote, naming both, and writes nothing', async () => {
    const id = await addAcme();
    const args = (span: string) => [...acmeFactArgs('Acme Paper Ltd.', id), '--span', span];
    const out = await ws.brain(...args('0-6'));
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`span 0-6 of ${id}'s text is "# Acme", not the quote "EUR 12"`);
    expect((await ws.brainJson<{ entities: unknown[] }>('entities')).entities).toEqual([]);
    // A span that holds the quote cites it.
    const at = '# Acme\n\nAcme Paper Ltd. Price per box: '.length;
    const ok = await ws.brainJson<{ fact: { citations: { quote: string }[] } }>(...args(`${at}-${at + 6}`));
    expect(ok.fact.citations[0]?.quote).toBe('EUR 12');
  });
});

describe('brain fact add and brain mention with a name that holds a line break or a control character', () => {
  it('refuses the name, naming why, and makes no entity', async () => {
    const id = await addAcme();
    for (const name of ['Acme\nPaper', 'Acme\u001b[2J', 'Acme\u2028Paper']) {
      const fact = await ws.brain(...acmeFactArgs(name, id));
      expect(fact.code, JSON.stringify(name)).toBe(2);
      expect(fact.stderr).toContain('facts.state: entity: one line of text, without control characters');
      const mention = await ws.brain('mention', id, name, '--kind', 'company', '--quote', 'Acme Paper Ltd.');
      expect(mention.code, JSON.stringify(name)).toBe(2);
      expect(mention.stderr).toContain(
        'mentions.observe: name: one line of text, without control characters',
      );
    }
    expect((await ws.brainJson<{ entities: unknown[] }>('entities')).entities).toEqual([]);
  });
});
