/**
 * `brain tree status` and `brain tree changes` as a person reads them on a terminal: counts with
 * their nouns, "1 document" and "2 documents", as every other command prints them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;

beforeEach(() => {
  ws = cliWorkspace('brain-cli-tree-text-');
});
afterEach(() => ws.remove());

describe('brain tree on a terminal', () => {
  it('counts one document as one, and many as many', async () => {
    writeFileSync(join(ws.files, 'leave.md'), '# Leave\n\n## Sabbatical\n\nSix weeks after five years.\n');
    const one = await ws.brainText('tree', 'connect', ws.files);
    expect(one).toContain('holds     1 document, 0 folders, 1 section, 0 cards, 0 links, 0 broken');

    writeFileSync(
      join(ws.files, 'travel.md'),
      '# Travel\n\n## Trains\n\nSecond class.\n\n## Hotels\n\nNear the office.\n',
    );
    expect((await ws.brain('tree', 'rebuild')).code).toBe(0);
    const two = await ws.brainText('tree', 'status');
    expect(two).toContain('holds     2 documents, 0 folders, 3 sections, 0 cards, 0 links, 0 broken');
  });

  it('names the files it left out and why', async () => {
    writeFileSync(join(ws.files, 'leave.md'), '# Leave\n');
    mkdirSync(join(ws.files, 'restricted'));
    writeFileSync(join(ws.files, 'restricted', 'salaries.md'), '# Salaries\n');
    const text = await ws.brainText('tree', 'connect', ws.files);
    expect(text).toContain('1 left out');
    expect(text).toContain('  left out  restricted/salaries.md (under a restricted/ folder)');
  });
});
