/**
 * [R4] in docs/RETRIEVAL.md: access checks run the real search as each member over a real
 * workspace (files in org, a team and two user scopes, hybrid search on the tiny model), through
 * the contract's accessChecks.* as every surface calls them.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessCheckCase } from '#shared/api/ops/access.ts';
import { AppError } from '#shared/errors.ts';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { listActivity } from '../knowledge/activity.ts';
import { createTestWorkspace, openAsLocalUser, type TestWorkspace } from '../testing/test-engine.ts';

let ws: TestWorkspace;
let admin: Engine;
const ids: Record<string, string> = {};
const paths: Record<string, string> = {};
const before = process.env.BRAIN_USER;

const QUESTION = 'Acme supplier contract renewal';

beforeAll(async () => {
  process.env.BRAIN_USER = 'ada'; // the workspace's first local user: its local admin ([R3])
  ws = createTestWorkspace();
  admin = ws.open({ model: true });
  admin.addMember('ana', ['legal']);
  admin.addMember('ben', []);
  const files: [string, Engine, string, string][] = [
    ['org', admin, 'handbook.md', '# Handbook\n\nThe Acme supplier contract renewal is run by legal.\n'],
    [
      'team:legal',
      ws.open({ model: true, user: 'ana' }),
      'contract.md',
      '# Contract\n\nAcme supplier contract: renewal every March.\n',
    ],
    [
      'user:ana',
      ws.open({ model: true, user: 'ana' }),
      'ana-notes.md',
      '# Notes\n\nMy notes on the Acme supplier contract renewal.\n',
    ],
    [
      'user:ben',
      ws.open({ model: true, user: 'ben' }),
      'ben-salary.md',
      '# Salary\n\nBen gets an Acme supplier contract renewal bonus.\n',
    ],
  ];
  for (const [scope, engine, name, text] of files) {
    const [file] = (await engine.add([ws.write(`${scope.replace(':', '-')}/${name}`, text)], { scope }))
      .added;
    await engine.index();
    ids[name] = file?.id ?? '';
    paths[name] = file?.path ?? '';
  }
}, 120_000);
afterAll(async () => {
  await ws.cleanup();
  if (before === undefined) delete process.env.BRAIN_USER;
  else process.env.BRAIN_USER = before;
});

type Report = {
  cases: {
    as: string;
    pass: boolean;
    reached: string[];
    missing: string[];
    leaked: string[];
    error?: string;
  }[];
  passed: number;
  failed: number;
  semantic: boolean;
};

const check = async (engine: Engine, input: Record<string, unknown>) =>
  (await runCommand(memberContext(engine, 'cli'), 'accessChecks.run', input)) as Report;

const refusal = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

describe('[R4] access checks', () => {
  it('[R4] a passing table: each member reaches their scopes (by name, path and id) and nothing else', async () => {
    const cases: AccessCheckCase[] = [
      {
        as: 'ana',
        question: QUESTION,
        mustReach: ['handbook.md', paths['contract.md'] ?? '', ids['ana-notes.md'] ?? ''],
        mustNotReach: ['ben-salary.md'],
      },
      {
        as: 'ben',
        question: QUESTION,
        mustReach: ['handbook.md', 'ben-salary.md'],
        mustNotReach: ['contract.md', 'ana-notes.md'],
      },
      { as: 'ada', question: QUESTION, mustReach: ['handbook.md'], mustNotReach: ['contract.md'] },
    ];
    const report = await check(admin, { cases });
    expect(report).toMatchObject({ passed: 3, failed: 0, semantic: true });
    expect(report.cases[0]).toMatchObject({
      as: 'ana',
      pass: true,
      reached: ['handbook.md', paths['contract.md'], ids['ana-notes.md']],
      missing: [],
      leaked: [],
    });
    expect(report.cases[1]?.reached).toEqual(['handbook.md', 'ben-salary.md']);
  });

  it('[R4] a failing table: a file of a scope the member lacks is missing, and the run is in the admin Activity', async () => {
    const report = await check(admin, {
      text: JSON.stringify({
        cases: [
          { as: 'ben', question: QUESTION, mustReach: ['contract.md', 'handbook.md'] },
          { as: 'ana', question: QUESTION, mustNotReach: ['ben-salary.md'] },
        ],
      }),
      source: 'checks.json',
    });
    expect(report).toMatchObject({ passed: 1, failed: 1 });
    expect(report.cases[0]).toMatchObject({
      as: 'ben',
      pass: false,
      reached: ['handbook.md'],
      missing: ['contract.md'],
      leaked: [],
    });
    const [entry] = listActivity(admin.db, { user: 'ada', events: ['access-check'] });
    expect(entry).toMatchObject({
      user: 'ada',
      summary: 'access check (checks.json): 2 cases as ben, ana, 1 passed, 1 failed (cli)',
      data: { by: 'ada', as: ['ben', 'ana'], cases: 2, passed: 1, failed: 1, surface: 'cli' },
    });
    // The members did not ask: the checks' searches are not in their Activity.
    expect(listActivity(admin.db, { user: 'ben', events: ['search'] })).toEqual([]);
  });

  it('[R4] an unknown file, a name two files share, an unknown member: that case fails with its error', async () => {
    const twin = ws.write('elsewhere/handbook.md', '# Other handbook\n\nNothing about suppliers.\n');
    await admin.add([twin]);
    const report = await check(admin, {
      cases: [
        { as: 'ana', question: QUESTION, mustReach: ['handbook.md'] },
        { as: 'ana', question: QUESTION, mustReach: ['contract.md'], mustNotReach: ['no-such-file.md'] },
        { as: 'zed', question: QUESTION, mustReach: ['contract.md'] },
        {
          as: 'ana',
          question: QUESTION,
          mustReach: ['contract.md'],
          mustNotReach: [ids['contract.md'] ?? ''],
        },
        { as: 'ana', question: QUESTION, mustReach: [paths['handbook.md'] ?? ''] },
      ],
    });
    expect(report).toMatchObject({ passed: 1, failed: 4 });
    const [twice, unknown, nobody, both, byPath] = report.cases;
    expect(twice).toMatchObject({ pass: false, reached: [], missing: [] });
    expect(twice?.error).toMatch(/^"handbook.md" names 2 files \(f_.*\): name one by its path or its id$/);
    expect(unknown?.error).toBe(
      'no file "no-such-file.md" in this workspace (give its id f_…, its path or its name)',
    );
    expect(nobody?.error).toBe('no member "zed" in this workspace');
    expect(both?.error).toBe('"contract.md" is in both mustReach and mustNotReach');
    expect(byPath).toMatchObject({ pass: true, reached: [paths['handbook.md']] });
  });

  it('[R4] a bad file is refused whole, naming the file, the case and the field; nothing runs', async () => {
    const events = () => listActivity(admin.db, { user: 'ada', events: ['access-check'] }).length;
    const ran = events();
    const bad: [string, string, RegExp][] = [
      [
        'typo.json',
        '[{"as":"ana","question":"q","mustreach":["a.md"]}]',
        /^typo.json: case 1 \(as ana\): Unrecognized key: "mustreach"\. No check ran\.$/,
      ],
      [
        'empty.json',
        '{"cases":[{"as":"ana","question":"q","mustReach":["a.md"]},{"as":"ben","question":"  ","mustReach":["a.md"]}]}',
        /^empty.json: case 2 \(as ben\), question: is empty/,
      ],
      [
        'none.json',
        '[{"as":"ana","question":"q"}]',
        /^none.json: case 1 \(as ana\), mustReach: names no file/,
      ],
      ['broken.json', '[{"as": "ana",', /^broken.json: is not valid JSON/],
      [
        'shape.json',
        '{"checks": []}',
        /^shape.json: is not a list of \{as, question, mustReach, mustNotReach\} cases/,
      ],
      ['nothing.json', '[]', /^nothing.json: the cases: holds no case/],
    ];
    for (const [source, text, message] of bad) {
      const err = await refusal(check(admin, { text, source }));
      expect(err.code, source).toBe('validation-failed');
      expect(err.message, source).toMatch(message);
    }
    expect(events()).toBe(ran);
  });

  it('[R4] YAML checks run like JSON ones', async () => {
    const text = `cases:\n  - as: ben\n    question: ${QUESTION}\n    mustReach: [ben-salary.md]\n    mustNotReach:\n      - ana-notes.md\n`;
    const report = await check(admin, { text, source: 'checks.yaml' });
    expect(report).toMatchObject({ passed: 1, failed: 0 });
  });

  it('[R4] checks that do not parse are refused and the kept ones stay', async () => {
    const ctx = memberContext(admin, 'app');
    const good = JSON.stringify([{ as: 'ana', question: QUESTION, mustReach: ['contract.md'] }]);
    await runCommand(ctx, 'accessChecks.set', { text: good });
    await expect(runCommand(ctx, 'accessChecks.set', { text: '[{"as":"x"}, {broken' })).rejects.toMatchObject(
      { code: 'validation-failed', message: expect.stringMatching(/access checks/) },
    );
    expect(await runCommand(ctx, 'accessChecks.get', {})).toMatchObject({ text: good });
    // An empty text clears them.
    expect(await runCommand(ctx, 'accessChecks.set', { text: '' })).toMatchObject({ text: '' });
  });

  it('[R4] the checks kept in Settings are kept and run when no cases are given', async () => {
    const ctx = memberContext(admin, 'app');
    await expect(check(admin, {})).rejects.toMatchObject({ code: 'validation-failed' });
    const text = JSON.stringify([{ as: 'ana', question: QUESTION, mustReach: ['contract.md'] }]);
    const kept = (await runCommand(ctx, 'accessChecks.set', { text })) as { text: string; savedAt: string };
    expect(kept.text).toBe(text);
    expect(await runCommand(ctx, 'accessChecks.get', {})).toEqual(kept);
    expect(await check(admin, {})).toMatchObject({ passed: 1, failed: 0 });
    const [entry] = listActivity(admin.db, { user: 'ada', events: ['access-check'] });
    expect(entry?.summary).toMatch(/^access check \(Settings\): 1 case as ana/);
  });

  it('[R4] an ordinary member, or the admin acting as one, is refused before anything is read', async () => {
    const carol = openAsLocalUser('carol', { home: ws.home, modelDir: join(ws.home, 'no-model') });
    const asAna = ws.open({ user: 'ana' });
    try {
      for (const [engine, reason] of [
        [carol, "the local admin is ada (the workspace's first local user), not carol"],
        [asAna, "the local admin is ada (the workspace's first local user), not ana"],
      ] as const) {
        for (const [op, input] of [
          ['accessChecks.run', { text: 'not even JSON {' }],
          ['accessChecks.get', {}],
          ['accessChecks.set', { text: '[]' }],
        ] as const) {
          const err = await refusal(runCommand(memberContext(engine, 'app'), op, input));
          expect(err.code, op).toBe('forbidden');
          expect(err.message).toBe(
            `Access checks are for the local admin only, as they search as other members: ${reason}.`,
          );
        }
      }
      expect(listActivity(admin.db, { user: 'carol' })).toEqual([]);
    } finally {
      await carol.close();
    }
  });

  it('[R4] agents are not offered access checks', async () => {
    const agent = { ...memberContext(admin, 'agent'), surface: 'agent' as const };
    for (const op of ['accessChecks.run', 'accessChecks.get', 'accessChecks.set']) {
      await expect(runCommand(agent, op, {})).rejects.toMatchObject({ code: 'not-found' });
    }
  });
});
