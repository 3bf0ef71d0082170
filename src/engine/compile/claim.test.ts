/**
 * The claim on a source's compile pass (docs/FACTS.md [K11], src/engine/compile/claim.ts) on a real
 * workspace file opened by two engines (two connections, as a host and `brain compile` open it),
 * with the scripted model as the chat model: one source is compiled once, a claim left by a killed
 * process is taken over after its lease, and every outcome (done, failed, stopped) gives it back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { type ModelAccess, resolveModel, setModelSetting } from '../llm/config.ts';
import { compileStep, jsonReply, judgeAsked } from '../testing/compile-model.ts';
import { dumpTables } from '../testing/db-dump.ts';
import type { ChatRequest, ScriptedModel, ScriptedReply } from '../testing/scripted-model.ts';
import { startScriptedModel } from '../testing/scripted-model.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { until } from '../testing/until.ts';
import { compileSource } from './index.ts';

let ws: TestWorkspace;
let one: Engine;
let two: Engine;
let model: ScriptedModel;
let extractReply: () => ScriptedReply;

const SENTRY = {
  entities: [{ name: 'Sentry', kind: 'company' }],
  facts: [
    {
      entity: 'Sentry',
      statement: 'Programming exceptions are tracked on Sentry.',
      quote: 'We track programming exceptions on Sentry.',
    },
  ],
};

/** The judge places every entity it is asked about on its first candidate. */
function judgeReply(req: ChatRequest): ScriptedReply {
  return jsonReply({
    decisions: judgeAsked(req).map((a) => ({ n: a.n, choice: a.candidates[0], unsure: false })),
  });
}

beforeEach(async () => {
  ws = createTestWorkspace();
  one = ws.open();
  two = ws.open();
  extractReply = () => jsonReply(SENTRY);
  model = await startScriptedModel((req) => {
    const step = compileStep(req);
    if (step === 'extract') return extractReply();
    if (step === 'judge') return judgeReply(req);
    return { content: 'ok' };
  });
  await setModelSetting(one.db, ws.home, 'model.baseUrl', model.url);
  await setModelSetting(one.db, ws.home, 'model.name', 'scripted');
});
afterEach(async () => {
  await model.close();
  await ws.cleanup();
});

const steps = (step: 'extract' | 'judge') => model.requests.filter((r) => compileStep(r) === step).length;
const claims = (e: Engine) => e.db.prepare('SELECT * FROM compile_claims').all();
const passes = (e: Engine) => e.db.prepare('SELECT source_id, state FROM compile_passes').all();

async function access(e: Engine): Promise<ModelAccess> {
  const a = await resolveModel(e.db, e.home);
  if (!a) throw new Error('no chat model configured');
  return a;
}

/** A file naming "Sentry", after a page "Sentri" exists: the judge is asked about it. */
async function world(): Promise<string> {
  const known = await one.add([ws.write('known.md', '# Vendors\n\nSentri handles our error reports.\n')]);
  await one.index();
  const knownId = known.added[0]?.id ?? '';
  const section = one.db
    .prepare("SELECT id FROM items WHERE file_id = ? AND storage_kind = 'section' ORDER BY ordinal LIMIT 1")
    .get(knownId) as { id: string };
  await runCommand(memberContext(one, 'cli'), 'facts.state', {
    entity: 'Sentri',
    kind: 'company',
    statement: 'Sentri handles error reports.',
    item_id: section.id,
    quote: 'Sentri handles our error reports.',
  });
  const added = await one.add([
    ws.write('tools.md', '# Tools\n\nWe track programming exceptions on Sentry.\n'),
  ]);
  await one.index();
  return added.added[0]?.id ?? '';
}

/** A reply held back until `release()`: a model still thinking. */
function held(reply: ScriptedReply): { reply: () => ScriptedReply; release: () => void } {
  let release: () => void = () => undefined;
  const after = new Promise<void>((r) => {
    release = r;
  });
  return { reply: () => ({ after, reply: reply as never }), release };
}

describe('[K11] the claim on a compile pass', () => {
  it('[K11] two connections on one workspace compile one source once: one model request per step, one pass', async () => {
    const file = await world();
    const slow = held(jsonReply(SENTRY));
    extractReply = slow.reply;
    const first = compileSource(one, await access(one), file);
    await until(
      () => steps('extract'),
      (n) => n === 1,
      { label: 'the first extract asked' },
    );
    expect(claims(two)).toHaveLength(1);

    const second = await compileSource(two, await access(two), file);
    expect(second).toMatchObject({ id: file, state: 'busy', error: 'being compiled by another process' });
    expect(steps('extract')).toBe(1);

    slow.release();
    expect(await first).toMatchObject({ id: file, state: 'done', facts: 1 });
    expect({ extract: steps('extract'), judge: steps('judge') }).toEqual({ extract: 1, judge: 1 });
    expect(passes(two)).toEqual([{ source_id: file, state: 'done' }]);
    expect(claims(one)).toEqual([]);
    // Once it is done, the other connection finds the same content compiled: no model call.
    expect(await compileSource(two, await access(two), file)).toMatchObject({ state: 'skipped' });
    expect(model.requests.filter((r) => compileStep(r) !== null)).toHaveLength(2);
  });

  it('[K11] a live claim of another process is skipped untouched; one whose lease ran out is taken over', async () => {
    const file = await world();
    const insert = one.db.prepare(
      'INSERT OR REPLACE INTO compile_claims (source_id, owner, lease_until, started_at) VALUES (?, ?, ?, ?)',
    );
    const live = {
      source_id: file,
      owner: 'other:1:live',
      lease_until: Date.now() + 60_000,
      started_at: 'x',
    };
    insert.run(live.source_id, live.owner, live.lease_until, live.started_at);
    expect(await compileSource(two, await access(two), file)).toMatchObject({ state: 'busy' });
    expect(claims(one)).toEqual([live]);
    expect(steps('extract')).toBe(0);

    // The process that held it was killed: its lease ran out.
    insert.run(file, 'other:1:dead', Date.now() - 1, 'x');
    expect(await compileSource(two, await access(two), file)).toMatchObject({ state: 'done', facts: 1 });
    expect(steps('extract')).toBe(1);
    expect(claims(one)).toEqual([]);
  });

  it('[K11] a failed pass gives its claim back: the next one compiles the source', async () => {
    const file = await world();
    extractReply = () => ({ status: 503, error: 'the model is down' });
    expect(await compileSource(one, await access(one), file)).toMatchObject({ state: 'failed' });
    expect(passes(one)).toEqual([{ source_id: file, state: 'failed' }]);
    expect(claims(one)).toEqual([]);
    extractReply = () => jsonReply(SENTRY);
    expect(await compileSource(two, await access(two), file)).toMatchObject({ state: 'done', facts: 1 });
  });

  it('[K11] a pass stopped by its signal aborts the model call, writes nothing and gives its claim back', async () => {
    const file = await world();
    extractReply = () => ({ hang: true });
    const before = dumpTables(one.db);
    const stop = new AbortController();
    const running = compileSource(one, await access(one), file, { signal: stop.signal });
    await until(
      () => steps('extract'),
      (n) => n === 1,
      { label: 'extract asked' },
    );
    expect(claims(one)).toHaveLength(1);
    stop.abort();
    // The model never answers: the pass returns because its call was aborted.
    expect(await running).toMatchObject({ state: 'failed', error: expect.stringMatching(/^stopped/) });
    expect(dumpTables(one.db)).toEqual(before);
    expect(claims(one)).toEqual([]);
  });
});
