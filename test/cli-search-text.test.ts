/**
 * `brain search` as a person reads it on a terminal ([R6] in docs/RETRIEVAL.md): one entry per
 * source, shown by its best passage, and the same source's other matching passages listed under
 * it with their citations, so a search that folds many matches into one entry says so. `-k` is
 * taken as `--k` is.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;

beforeEach(() => {
  ws = cliWorkspace('brain-cli-search-text-');
});
afterEach(() => ws.remove());

describe('[R6] brain search on a terminal', () => {
  it('lists the folded passages of a source under its entry, each cited', async () => {
    const part = (n: number) =>
      `## Station ${n}\n\nThe glacier at station ${n} moved ${n * 3} metres this spring.\n`;
    writeFileSync(join(ws.files, 'glaciers.md'), `# Glacier survey\n\n${[1, 2, 3].map(part).join('\n')}`);
    writeFileSync(
      join(ws.files, 'budget.md'),
      '# Budget\n\nTravel to the glacier stations costs 4,000 euros.\n',
    );
    expect((await ws.brain('add', ws.files)).code).toBe(0);
    expect((await ws.brain('index')).code).toBe(0);

    const text = await ws.brainText('search', 'glacier station moved', '-k', '2');
    const entries = text.split('\n').filter((l) => /^\d+\. /.test(l));
    expect(entries).toHaveLength(2);
    expect(entries[0]).toContain('Glacier survey > Station');
    expect(text).toContain('+ 3 more passages from this source:');
    const cited = text.split('\n').filter((l) => /^ {5}s_\w+ {2}Glacier survey, lines \d+-\d+$/.test(l));
    expect(cited).toHaveLength(3);
    expect(text).not.toContain('… and');
  });
});
