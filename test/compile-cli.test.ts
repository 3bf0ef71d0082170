/**
 * `brain compile` and the compile step of `brain index` (docs/FACTS.md [K9]–[K11]) as scripts use
 * them: real `brain` processes on a real workspace, a handbook page from the shared corpus copied
 * in, the chat model a scripted OpenAI-compatible server in this process, configured with
 * `brain config set` as a person does.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileSource } from '#engine/compile/index.ts';
import { resolveModel } from '#engine/llm/config.ts';
import { compileStep, jsonReply, requestText } from '#engine/testing/compile-model.ts';
import { dumpTables } from '#engine/testing/db-dump.ts';
import {
  type ScriptedModel,
  type ScriptedReply,
  startScriptedModel,
} from '#engine/testing/scripted-model.ts';
import { openAsLocalUser } from '#engine/testing/test-engine.ts';
import { until } from '#engine/testing/until.ts';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

const PAGE = '/work/shared/corpus/basecamp-handbook/our-internal-systems.md';

const SYSTEMS = {
  entities: [
    { name: 'Queenbee', kind: 'project' },
    { name: 'Sentry', kind: 'company' },
  ],
  facts: [
    {
      entity: 'Queenbee',
      statement: 'Queenbee is the invoice, accounting and identity system.',
      quote: 'Queenbee is our invoice, accounting, and identity system.',
    },
    {
      entity: 'Sentry',
      statement: 'Programming exceptions are tracked on Sentry.',
      quote: 'We track programming exceptions on Sentry.',
    },
  ],
};

let ws: CliWorkspace;
let model: ScriptedModel;
let extract: () => ScriptedReply;

beforeEach(async () => {
  ws = cliWorkspace('brain-compile-cli-');
  extract = () => jsonReply(SYSTEMS);
  model = await startScriptedModel((req) => {
    if (compileStep(req) === 'extract') return extract();
    if (compileStep(req) === 'judge') return jsonReply({ decisions: [] });
    return { content: 'ok' };
  });
  copyFileSync(PAGE, join(ws.files, 'our-internal-systems.md'));
});
afterEach(async () => {
  await model.close();
  ws.remove();
});

async function configure(): Promise<void> {
  await ws.brainText('config', 'set', 'model.baseUrl', model.url);
  await ws.brainText('config', 'set', 'model.name', 'scripted');
}

function dump() {
  const db = new Database(join(ws.home, 'brain.db'), { readonly: true });
  try {
    const { telemetry: _log, ...tables } = dumpTables(db); // brain processes log their own telemetry
    return tables;
  } finally {
    db.close();
  }
}

type Entity = { id: string; label: string };
type Outcome = {
  id: string;
  state: string;
  facts: number;
  added: number;
  kept: number;
  error: string | null;
};

// Each step starts a `brain` process: seconds each on a loaded two-core machine.
describe('brain compile', { timeout: 300_000 }, () => {
  it('[K9] without a chat model it says one is needed and exits non-zero', async () => {
    await ws.brainText('add', ws.files);
    expect(await ws.brainText('index')).not.toMatch(/compiled/);
    const r = await ws.brain('compile');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error\[unsupported\]: Compiling needs a chat model/);
    expect(r.stderr).toContain('brain config set model.baseUrl');
    expect(model.requests).toHaveLength(0);
  });

  it('[K9] [K11] `brain index` compiles what it indexed, a line each; `brain compile` then has nothing to do, or recompiles when forced', async () => {
    await configure();
    const added = await ws.brainJson<{ added: { id: string }[] }>('add', ws.files);
    const file = added.added[0]?.id ?? '';
    const indexed = await ws.brainText('index');
    expect(indexed).toContain(
      `done     ${file}  our-internal-systems.md: 2 facts on 2 entities (2 new, 0 retired)`,
    );
    expect(indexed).toContain('1 compiled, 0 unchanged, 0 failed with scripted: 2 facts.');
    const extractSent = model.requests.filter((r) => compileStep(r) === 'extract');
    expect(extractSent).toHaveLength(1);
    expect(requestText(extractSent[0] as never)).toContain('Queenbee is our invoice');

    const entities = await ws.brainJson<{ entities: Entity[] }>('entities');
    const queenbee = entities.entities.find((e) => e.label === 'Queenbee');
    expect(await ws.brainText('fact', 'list', queenbee?.id ?? '?')).toContain(
      'Queenbee is the invoice, accounting and identity system.',
    );

    const before = dump();
    expect(await ws.brainText('compile')).toBe('Nothing to compile: every source of yours is compiled.\n');
    expect(await ws.brainText('compile', file)).toContain(
      `skipped  ${file}  our-internal-systems.md: 2 facts`,
    );
    expect(dump()).toEqual(before);
    const forced = await ws.brainJson<{ model: string; results: Outcome[] }>('compile', file, '--force');
    expect(forced).toMatchObject({
      model: 'scripted',
      results: [{ id: file, state: 'done', facts: 2, added: 0, kept: 2 }],
    });
    expect(model.requests.filter((r) => compileStep(r) === 'extract')).toHaveLength(2);
  });

  it('[K11] a source another process is compiling is skipped: "being compiled by another process", one model call', async () => {
    const added = await ws.brainJson<{ added: { id: string }[] }>('add', ws.files);
    const file = added.added[0]?.id ?? '';
    await ws.brainText('index'); // no chat model yet: nothing is compiled
    await configure();
    let release: () => void = () => undefined;
    const after = new Promise<void>((r) => {
      release = r;
    });
    extract = () => ({ after, reply: jsonReply(SYSTEMS) });
    // The other process: an engine of this member's on the same workspace, its model call held back.
    const engine = openAsLocalUser('tester', { home: ws.home, modelDir: ws.modelDir });
    try {
      const access = await resolveModel(engine.db, engine.home);
      if (!access) throw new Error('no chat model configured');
      const running = compileSource(engine, access, file);
      await until(
        () => model.requests.filter((r) => compileStep(r) === 'extract').length,
        (n) => n === 1,
        {
          label: 'the first extract asked',
        },
      );
      const r = await ws.brain('compile', file);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(
        `busy     ${file}  our-internal-systems.md: being compiled by another process`,
      );
      expect(r.stdout).toContain('0 compiled, 0 unchanged, 1 being compiled by another process, 0 failed');
      release();
      expect(await running).toMatchObject({ state: 'done', facts: 2 });
    } finally {
      release();
      await engine.close();
    }
    expect(model.requests.filter((r) => compileStep(r) === 'extract')).toHaveLength(1);
  });

  it('[K9] a model that fails is a failed line and a non-zero exit; bad ids are refused naming them', async () => {
    await configure();
    const added = await ws.brainJson<{ added: { id: string }[] }>('add', ws.files);
    const file = added.added[0]?.id ?? '';
    extract = () => ({ status: 500, error: 'the model is down' });
    const indexed = await ws.brain('index');
    expect(indexed.code).toBe(0);
    expect(indexed.stdout).toMatch(
      new RegExp(`failed   ${file}  our-internal-systems.md: extract: .*the model is down`),
    );
    const before = dump();
    const again = await ws.brain('compile');
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('0 compiled, 0 unchanged, 1 failed');
    const entities = await ws.brainJson<{ entities: Entity[] }>('entities');
    expect(entities.entities).toEqual([]);
    const { compile_passes: _passes, ...rest } = dump();
    const { compile_passes: _earlier, ...restBefore } = before;
    expect(rest).toEqual(restBefore);

    const r = await ws.brain('compile', 'n_00000000000000000000');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error[not-found]: No item with id n_00000000000000000000.');
  });
});
