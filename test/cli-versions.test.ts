/**
 * Versioned sources as scripts see them (docs/FACTS.md [K16]): `brain add --external-id` from two
 * paths is one source with two versions; `brain versions` lists them; the same bytes again change
 * nothing; a folder with an external id is refused, naming why.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;

beforeEach(() => {
  ws = cliWorkspace('brain-cli-versions-');
});
afterEach(() => ws.remove());

describe('[K16] brain add --external-id and brain versions', () => {
  it('makes the next version of one source, lists its versions and refuses a folder', async () => {
    const v1 = join(ws.files, 'contract-2025.md');
    const v2 = join(ws.files, 'contract-2026.md');
    writeFileSync(v1, '# Contract\n\nThe term ends on 2026-12-31.\n');
    writeFileSync(v2, '# Contract\n\nThe term ends on 2027-12-31.\n');
    const first = JSON.parse((await ws.brain('add', v1, '--external-id', 'CT-7', '--json')).stdout) as {
      added: { id: string }[];
    };
    const id = first.added[0]?.id ?? '';
    const second = await ws.brain('add', v2, '--external-id', 'CT-7');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`added      ${id}  ${v2}`);
    const again = await ws.brain('add', v2, '--external-id', 'CT-7');
    expect(again.stdout).toContain(`unchanged  ${id}  ${v2}`);

    const listed = JSON.parse((await ws.brain('versions', id, '--json')).stdout) as {
      versions: { id: string; number: number; current: boolean; label: string }[];
    };
    expect(listed.versions.map((v) => [v.number, v.current, v.label])).toEqual([
      [2, true, 'contract-2026.md'],
      [1, false, 'contract-2025.md'],
    ]);
    const text = await ws.brain('versions', id);
    expect(text.stdout).toMatch(/^v2 {2}\d{4}-\d\d-\d\d {2}current {2}/);
    expect(text.stdout).toMatch(/\nv1 {2}\d{4}-\d\d-\d\d {2}replaced \d{4}-\d\d-\d\d {2}/);

    const folder = join(ws.files, 'more');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.md'), '# A\n');
    writeFileSync(join(folder, 'b.md'), '# B\n');
    const refused = await ws.brain('add', folder, '--external-id', 'CT-8');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /error\[validation-failed\]: --external-id names one source: add one file with it \(.*more holds 2 files\)/,
    );
    const none = await ws.brain('versions', 'f_00000000000000000000');
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/error\[not-found\]/);
  });
});
