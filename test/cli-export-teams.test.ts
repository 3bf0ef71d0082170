/**
 * `brain import` of an export holding a team's rows ([N20] in docs/PACKAGING.md), as scripts run
 * it: real processes on real workspaces. An import makes nobody a member of a team: into a new home
 * where the member is in no team, the team's file is left out and the answer counts it and says how
 * to have it; into a home where they were made a member of the team first, it comes along.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

/** The local member cliWorkspace runs as (BRAIN_USER). */
const USER = 'tester';

let ws: CliWorkspace;

beforeEach(() => {
  ws = cliWorkspace('brain-cli-export-teams-');
});
afterEach(() => ws.remove());

type Imported = {
  counts: { files: number };
  leftOut: { teams: string[]; counts: { files: number; sections: number } };
};

describe('[N20] [N17] brain import leaves out the rows of a team the member is not in here', () => {
  it('counts and names what it left out, and imports it where the member is in the team', async () => {
    expect((await ws.brain('members', 'add', USER, '--team', 'eng')).code).toBe(0);
    writeFileSync(join(ws.files, 'plan.md'), '# Plan\n\nThe eng team ships on Tuesdays.\n');
    writeFileSync(join(ws.files, 'leave.md'), '# Leave\n\nSix weeks of sabbatical.\n');
    expect((await ws.brain('add', join(ws.files, 'leave.md'))).code).toBe(0);
    expect((await ws.brain('add', '--scope', 'team:eng', join(ws.files, 'plan.md'))).code).toBe(0);
    expect((await ws.brain('index')).code).toBe(0);
    const out = join(ws.root, 'exported');
    expect((await ws.brain('export', '--out', out)).code).toBe(0);

    const outside = ws.with({ home: join(ws.root, 'home2') });
    const text = await outside.brainText('import', out);
    expect(text).toContain('Imported 1 file');
    expect(text).toMatch(/Left out 1 file, 1 section, .* of team:eng: \S+ is not a member here/);
    expect(text).toContain(`members add ${USER} --team eng`);
    const none = await outside.brainJson<{ hits: unknown[] }>('search', 'Tuesdays');
    expect(none.hits).toEqual([]);

    const inside = ws.with({ home: join(ws.root, 'home3') });
    expect((await inside.brain('members', 'add', USER, '--team', 'eng')).code).toBe(0);
    const imported = await inside.brainJson<Imported>('import', out);
    expect(imported.counts.files).toBe(2);
    expect(imported.leftOut.teams).toEqual([]);
    const hits = await inside.brainJson<{ hits: unknown[] }>('search', 'Tuesdays');
    expect(hits.hits.length).toBeGreaterThan(0);
  });
});
