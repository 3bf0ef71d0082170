/**
 * `brain dossier <entity>` as a person reads it on a terminal: the entity's current facts with
 * their citations under "Facts" (docs/FACTS.md [K5], as the app's Facts tab shows them), apart
 * from the notes and links tied to it, each with its own count. `--json` keeps the contract's
 * items.dossier as every surface answers it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;

beforeEach(() => {
  ws = cliWorkspace('brain-cli-dossier-facts-');
});
afterEach(() => ws.remove());

describe('[K5] brain dossier of an entity', () => {
  it('shows its current fact with its citation, and counts notes and links apart', async () => {
    writeFileSync(
      join(ws.files, 'prices.md'),
      '# Office supplies\n\nPrice per box: EUR 12 from Acme Paper.\n',
    );
    const added = await ws.brainJson<{ added: { id: string }[] }>('add', ws.files);
    const fileId = added.added[0]!.id;
    expect((await ws.brain('index')).code).toBe(0);
    const stated = await ws.brainJson<{ entity: { id: string }; fact: { id: string } }>(
      'fact',
      'add',
      'Acme Paper Ltd.',
      'A box of paper costs EUR 12.',
      '--kind',
      'company',
      '--attribute',
      'price',
      '--item',
      fileId,
      '--quote',
      'Price per box: EUR 12',
    );

    const text = await ws.brainText('dossier', stated.entity.id);
    const lines = text.split('\n');
    expect(lines).toContain('Facts (1)');
    const fact = lines.findIndex((l) => l.includes('price: A box of paper costs EUR 12.'));
    expect(fact).toBeGreaterThan(lines.indexOf('Facts (1)'));
    expect(lines.slice(fact).join('\n')).toContain('"Price per box: EUR 12"');
    expect(lines).toContain('Notes and links (0)');
    expect(text).not.toContain('Facts and notes');

    // --json is the operation's answer, as on every surface; the facts are facts.list's.
    const json = await ws.brainJson<{ entity: { facts: unknown[]; totals: { facts: number } } }>(
      'dossier',
      stated.entity.id,
    );
    expect(json.entity.facts).toEqual([]);
    expect(json.entity.totals.facts).toBe(0);
    expect(json.entity).not.toHaveProperty('currentFacts');
  }, 120_000);
});
