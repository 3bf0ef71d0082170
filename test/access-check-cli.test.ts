/**
 * [R4] in docs/RETRIEVAL.md through real `brain` processes: `brain access-check FILE` prints the
 * pass/fail table and exits 0 when every case passes, 1 when one fails; a bad file is a usage
 * error (exit 2) naming the file and the case; a member who is not the local admin is refused.
 * The checks files here are also this workspace's own proof of its scopes: org, a team, a user.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;

const QUESTION = 'Acme supplier contract renewal';

function checksFile(name: string, content: unknown): string {
  const path = join(ws.root, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

function file(dir: string, name: string, text: string): string {
  mkdirSync(join(ws.files, dir), { recursive: true });
  const path = join(ws.files, dir, name);
  writeFileSync(path, text);
  return path;
}

const PASSING = [
  { as: 'ana', question: QUESTION, mustReach: ['handbook.md', 'contract.md'], mustNotReach: ['salary.md'] },
  { as: 'ben', question: QUESTION, mustReach: ['handbook.md', 'salary.md'], mustNotReach: ['contract.md'] },
];

beforeAll(async () => {
  ws = cliWorkspace('brain-r4-');
  // `tester` makes the workspace: its first local user, the local admin ([R3]).
  await ws.brainText('members', 'add', 'ana', '--team', 'legal');
  await ws.brainText('members', 'add', 'ben');
  await ws.brainText('members', 'add', 'carol');
  const added: [string, string, string, string][] = [
    ['tester', 'org', 'handbook.md', 'The Acme supplier contract renewal is run by legal.'],
    ['ana', 'team:legal', 'contract.md', 'Acme supplier contract: renewal every March.'],
    ['ben', 'user:ben', 'salary.md', 'Ben gets an Acme supplier contract renewal bonus.'],
  ];
  for (const [as, scope, name, text] of added) {
    const path = file(scope.replace(':', '-'), name, `# ${name}\n\n${text}\n`);
    await ws.brainText('--as', as, 'add', path, '--scope', scope);
    await ws.brainText('--as', as, 'index');
  }
}, 120_000);
afterAll(() => ws.remove());

describe('[R4] brain access-check', () => {
  it('[R4] every case passing: the table, exit 0, and --json the report', async () => {
    const path = checksFile('passing.json', PASSING);
    const r = await ws.brain('access-check', path);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      '#  member  question                        result  missing / leaked',
      `1  ana     ${QUESTION}  PASS`,
      `2  ben     ${QUESTION}  PASS`,
      '',
      '2 passed, 0 failed (semantic search is off: keyword search only)',
      '',
    ]);
    const report = await ws.brainJson<{ passed: number; failed: number; cases: { reached: string[] }[] }>(
      'access-check',
      path,
    );
    expect(report).toMatchObject({ passed: 2, failed: 0, semantic: false });
    expect(report.cases.map((c) => c.reached)).toEqual([
      ['handbook.md', 'contract.md'],
      ['handbook.md', 'salary.md'],
    ]);
  });

  it('[R4] a case failing: FAIL with what was missing or why, exit 1', async () => {
    const path = checksFile(
      'failing.yaml',
      [
        'cases:',
        '  - as: ben',
        `    question: ${QUESTION}`,
        '    mustReach: [contract.md, handbook.md]',
        '  - as: ana',
        `    question: ${QUESTION}`,
        '    mustNotReach: [missing.md]',
        '',
      ].join('\n'),
    );
    const r = await ws.brain('access-check', path);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    expect(lines[1]).toMatch(/^1 {2}ben {5}Acme supplier contract renewal {2}FAIL {4}missing: contract\.md$/);
    expect(lines[2]).toMatch(
      /^2 {2}ana .* FAIL {4}error: no file "missing\.md" in this workspace \(give its id f_…, its path or its name\)$/,
    );
    expect(lines).toContain('0 passed, 2 failed (semantic search is off: keyword search only)');
    // --json prints the report and exits 1 alike.
    const json = await ws.brain('access-check', path, '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      passed: 0,
      failed: 2,
      cases: [{ missing: ['contract.md'] }, { error: expect.stringMatching(/^no file "missing\.md"/) }],
    });
  });

  it('[R4] a bad file is a usage error naming the file and the case; nothing runs', async () => {
    const path = checksFile('typo.json', [{ as: 'ana', question: QUESTION, mustreach: ['contract.md'] }]);
    const r = await ws.brain('access-check', path);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error[validation-failed]: ${path}: case 1 (as ana): Unrecognized key: "mustreach". No check ran.\n`,
    );
    const missing = await ws.brain('access-check', join(ws.root, 'nope.json'));
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(
      /^error\[not-found\]: Cannot read the checks file .*nope\.json \(ENOENT\)\./,
    );
  });

  it('[R4] only the local admin runs checks, and each run is in their Activity', async () => {
    const path = checksFile('passing.json', PASSING);
    const refused = await ws.with({ user: 'carol' }).brain('access-check', path);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      "error[forbidden]: Access checks are for the local admin only, as they search as other members: the local admin is tester (the workspace's first local user), not carol.\n",
    );
    type Entry = { event: string; summary: string };
    const { entries } = await ws.brainJson<{ entries: Entry[] }>('activity');
    // Newest first: two runs of the failing file, two of the passing one; refusals and bad files none.
    const runs = entries.filter((e) => e.event === 'access-check').map((e) => e.summary);
    expect(runs).toEqual([
      ...Array(2).fill('access check (failing.yaml): 2 cases as ben, ana, 0 passed, 2 failed (cli)'),
      ...Array(2).fill('access check (passing.json): 2 cases as ana, ben, 2 passed, 0 failed (cli)'),
    ]);
  });
});
