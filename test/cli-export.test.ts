/**
 * `brain export` and `brain import` as scripts run them ([N16], [N17] in docs/PACKAGING.md): real
 * processes on real workspaces. What one exports, another imports into a new home and finds; a
 * second import into the same home is refused, naming why, and exits non-zero.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;

beforeEach(() => {
  ws = cliWorkspace('brain-cli-export-');
});
afterEach(() => ws.remove());

type Report = { folder: string; counts: { files: number; notes: number; sections: number } };

describe('[N16] [N17] brain export and brain import', () => {
  it('round trip through two processes: the new workspace finds what the old one held', async () => {
    writeFileSync(
      join(ws.files, 'leave.md'),
      '# Leave policy\n\nEmployees get six weeks of paid sabbatical.\n',
    );
    writeFileSync(join(ws.files, 'travel.md'), '# Travel\n\nBook trains for trips under 600 km.\n');
    expect((await ws.brain('add', ws.files)).code).toBe(0);
    const indexed = await ws.brain('index');
    expect(indexed.code).toBe(0);
    expect(indexed.stdout).toMatch(/leave\.md \(1 section\)\n/);
    expect(
      (await ws.brain('note', 'add', '--kind', 'decision', '--label', 'Trains first', 'Trains under 600 km.'))
        .code,
    ).toBe(0);

    const out = join(ws.root, 'exported');
    const exported = await ws.brainJson<Report>('export', '--out', out);
    expect(exported.folder).toBe(out);
    expect(exported.counts.files).toBe(2);
    expect(exported.counts.notes).toBe(1);
    expect(readdirSync(join(out, 'files')).sort()).toEqual(['leave.md', 'retired', 'travel.md']);
    expect(readFileSync(join(out, 'files', 'leave.md'), 'utf8')).toContain('six weeks');

    const again = await ws.brain('export', '--out', out);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('is not empty');

    const other = ws.with({ home: join(ws.root, 'home2') });
    const text = await other.brainText('import', out);
    expect(text).toContain('Imported 2 files');
    // The agent brains' counts come through the operation's answer (none in this workspace).
    expect(text).toContain('0 agents, 0 brain versions, 0 observations, 0 runs');
    expect(exported.counts).toMatchObject({ agents: 0, agentVersions: 0, observations: 0, runs: 0 });
    const hits = await other.brainJson<{ hits: { body: string; citation: { fileLabel: string } }[] }>(
      'search',
      'sabbatical',
    );
    expect(hits.hits[0]?.citation.fileLabel).toBe('Leave policy');
    expect(hits.hits[0]?.body).toContain('six weeks of paid sabbatical');

    const twice = await other.brain('import', out);
    expect(twice.code).not.toBe(0);
    expect(twice.stderr).toMatch(/already holds \d+ items: import into an empty workspace/);
  });

  it('a crafted export is refused by file and line, exits non-zero and leaves the new home empty', async () => {
    writeFileSync(join(ws.files, 'leave.md'), '# Leave policy\n\nSix weeks of paid sabbatical.\n');
    expect((await ws.brain('add', ws.files)).code).toBe(0);
    expect((await ws.brain('index')).code).toBe(0);
    const out = join(ws.root, 'exported');
    await ws.brainJson<Report>('export', '--out', out);
    const path = join(out, 'items.jsonl');
    const original = readFileSync(path, 'utf8');
    const lines = original.split('\n');
    // Into another member's own scope, and JSON too deep to write back: both named, neither written.
    lines[0] = (lines[0] as string).replace(/"scope":"[^"]*"/, '"scope":"user:someone-else"');
    writeFileSync(path, lines.join('\n'));
    const other = ws.with({ home: join(ws.root, 'home2') });
    const refused = await other.brain('import', out);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(
      /items\.jsonl line 1: scope user:someone-else is not one the exporting member \S+ could see.*Nothing was imported\./,
    );
    const edges = readFileSync(join(out, 'edges.jsonl'), 'utf8');
    writeFileSync(path, original);
    writeFileSync(
      join(out, 'edges.jsonl'),
      edges.replace(/"props":(null|\{[^}]*\})/, `"props":${'['.repeat(50000)}${']'.repeat(50000)}`),
    );
    const deep = await other.brain('import', out);
    expect(deep.code).not.toBe(0);
    expect(deep.stderr).toMatch(/error\[validation-failed\]: edges\.jsonl line 1: props: nested too deeply/);
    writeFileSync(join(out, 'edges.jsonl'), edges);
    expect(await other.brainText('import', out)).toContain('Imported 1 file');
  });
});
