/**
 * `brain agents …` as scripts use it (docs/AGENTS.md [G3]–[G6]): real `brain` processes on a real
 * workspace, the chat model a scripted OpenAI-compatible server in this process configured with
 * `brain config set`; observations recorded with `brain observe --agent`, then synthesize,
 * versions, show, diff, rollback and prune.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ChatRequest,
  type ScriptedModel,
  type ScriptedUsage,
  startScriptedModel,
} from '#engine/testing/scripted-model.ts';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;
let model: ScriptedModel;
/** The API's usage the scripted model answers with, when a test sets it. */
let usage: ScriptedUsage | undefined;

/** A brain citing every observation the request listed, one gotcha each. */
function brainFor(req: ChatRequest): { content: string } {
  const text = String(req.messages.find((m) => m.role === 'user')?.content ?? '');
  const ids = [...text.matchAll(/^\d+\. id (o_[0-9a-f]{20}),/gm)].map((m) => m[1] as string);
  return {
    content: JSON.stringify({
      sections: {
        gotchas: ids.map((id, i) => ({
          text: `lesson ${req.messages.length}-${i}-${id}`,
          observation_ids: [id],
        })),
      },
    }),
  };
}

beforeEach(async () => {
  ws = cliWorkspace('brain-agents-cli-');
  usage = undefined;
  model = await startScriptedModel((req) => ({ ...brainFor(req), ...(usage ? { usage } : {}) }));
});
afterEach(async () => {
  await model.close();
  ws.remove();
});

type Outcome = {
  state: string;
  reason: string | null;
  version: { number: number; parent: number | null } | null;
};

// Each step is a `brain` process: seconds each on a loaded two-core machine.
describe('[G3] brain agents on the command line', { timeout: 300_000 }, () => {
  it('[G6] synthesize, versions, show, diff and rollback as processes', async () => {
    await ws.brainText('config', 'set', 'model.baseUrl', model.url);
    await ws.brainText('config', 'set', 'model.name', 'scripted');
    await ws.brainJson('agents', 'set', 'coder', '--tier', 'lead');
    for (let i = 0; i < 4; i++)
      await ws.brainJson(
        'observe',
        '--agent',
        'coder',
        '--type',
        'gotcha',
        '--text',
        `lesson ${i}`,
        '--importance',
        '0.8',
      );
    const early = await ws.brainJson<Outcome>('agents', 'synthesize', 'coder');
    expect(early).toMatchObject({
      state: 'skipped',
      reason: 'not due: 4 of 5 new observations for tier lead',
    });
    await ws.brainJson('observe', '--agent', 'coder', '--type', 'gotcha', '--text', 'lesson 4');
    const first = await ws.brainJson<Outcome>('agents', 'synthesize', 'coder');
    expect(first).toMatchObject({ state: 'synthesized', version: { number: 1, parent: null } });
    await ws.brainJson('observe', '--agent', 'coder', '--type', 'decision', '--text', 'use the lease');
    const second = await ws.brainJson<Outcome>('agents', 'synthesize', 'coder', '--force');
    expect(second.version).toMatchObject({ number: 2, parent: 1 });

    const listed = await ws.brainJson<{ activeVersion: number; versions: { number: number }[] }>(
      'agents',
      'versions',
      'coder',
    );
    expect(listed.activeVersion).toBe(2);
    expect(listed.versions.map((v) => v.number)).toEqual([2, 1]);
    const diff = await ws.brainJson<{
      sections: { section: string; added: unknown[]; removed: unknown[] }[];
    }>('agents', 'diff', 'coder', '1', '2');
    expect(diff.sections[0]?.section).toBe('gotchas');
    expect(diff.sections[0]?.added).toHaveLength(1);

    const back = await ws.brainJson('agents', 'rollback', 'coder', '--to', '1');
    expect(back).toEqual({ agent: 'coder', activeVersion: 1, previous: 2 });
    const shown = await ws.brainJson<{
      version: { number: number };
      brain: { sections: { gotchas: unknown[] } };
    }>('agents', 'show', 'coder');
    expect(shown.version.number).toBe(1);
    expect(shown.brain.sections.gotchas).toHaveLength(5);
    const text = await ws.brainText('agents', 'versions', 'coder');
    expect(text).toMatch(/^\* v1 /m);
    expect(text).toMatch(/ \d+ observations?$/m);
    expect(text).not.toMatch(/ 1 observations$/m);

    const refused = await ws.brain('agents', 'rollback', 'coder', '--to', '7');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'error[not-found]: agents.rollback: coder has no version 7 (versions: 1, 2).',
    );
    const list = await ws.brainText('agents', 'list');
    expect(list).toMatch(/^coder {2}lead {2}v1 of 2 {2}waiting 0\/5/m);
    expect(await ws.brainJson('agents', 'prune')).toEqual({ pruned: 0, synthesized: 0, stale: 0 });
  });

  it('[G4] [G5] brain agents config sets the price table a synthesis is costed by, and refuses bad numbers', async () => {
    await ws.brainText('config', 'set', 'model.baseUrl', model.url);
    await ws.brainText('config', 'set', 'model.name', 'scripted');
    const unpriced = await ws.brainJson<{ prices: object; pruneImportance: number }>('agents', 'config');
    expect(unpriced).toMatchObject({ prices: {}, pruneImportance: 0.3 });
    const set = await ws.brainJson<{ prices: Record<string, object>; staleDays: number }>(
      'agents',
      'config',
      '--price',
      'scripted=2,8,1',
      '--stale-days',
      '30',
    );
    expect(set).toMatchObject({ prices: { scripted: { input: 2, output: 8, cached: 1 } }, staleDays: 30 });
    const bad = await ws.brain('agents', 'config', '--prune-importance', '5');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/prune_importance/);
    expect((await ws.brainJson<{ pruneImportance: number }>('agents', 'config')).pruneImportance).toBe(0.3);
    usage = {
      prompt_tokens: 1_000_000,
      completion_tokens: 500_000,
      prompt_tokens_details: { cached_tokens: 200_000 },
    };
    await ws.brainJson('observe', '--agent', 'coder', '--type', 'gotcha', '--text', 'costly lesson');
    const out = await ws.brainJson<{ version: { costUsd: number | null } }>(
      'agents',
      'synthesize',
      'coder',
      '--force',
    );
    // 800k uncached at $2, 200k cached at $1, 500k out at $8 per 1M tokens.
    expect(out.version.costUsd).toBeCloseTo(1.6 + 0.2 + 4, 6);
  });

  it('[G3] two processes racing to synthesize one agent make one version', async () => {
    // Every model reply waits until one of the two processes has finished: a process that got past
    // the claim too would wait forever, and the test would time out.
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    await model.close();
    model = await startScriptedModel((req) => ({ after: held, reply: brainFor(req) }));
    await ws.brainText('config', 'set', 'model.baseUrl', model.url);
    await ws.brainText('config', 'set', 'model.name', 'scripted');
    await ws.brainJson('agents', 'set', 'cmo', '--tier', 'lead');
    for (let i = 0; i < 5; i++)
      await ws.brainJson('observe', '--agent', 'cmo', '--type', 'decision', '--text', `d${i}`);
    const racers = [
      ws.brain('agents', 'synthesize', 'cmo', '--json'),
      ws.brain('agents', 'synthesize', 'cmo', '--json'),
    ];
    const firstDone = await Promise.race(racers);
    release();
    const outs = (await Promise.all(racers)).map((r) => JSON.parse(r.stdout) as Outcome);
    expect(JSON.parse(firstDone.stdout)).toMatchObject({ state: 'skipped' });
    expect(outs.map((o) => o.state).sort()).toEqual(['skipped', 'synthesized']);
    expect(outs.find((o) => o.state === 'skipped')?.reason).toMatch(/^another process is synthesizing cmo/);
    expect(model.requests).toHaveLength(1);
    const listed = await ws.brainJson<{ versions: unknown[] }>('agents', 'versions', 'cmo');
    expect(listed.versions).toHaveLength(1);
  });

  it('[G4] a model that fails makes the process exit 1 and writes no version', async () => {
    await model.close();
    model = await startScriptedModel(() => ({ status: 500, error: 'down' }));
    await ws.brainText('config', 'set', 'model.baseUrl', model.url);
    await ws.brainText('config', 'set', 'model.name', 'scripted');
    await ws.brainJson('observe', '--agent', 'coder', '--type', 'gotcha', '--text', 'x');
    const r = await ws.brain('agents', 'synthesize', 'coder', '--force');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/coder: failed: the model failed: 500/);
    expect(await ws.brainJson('agents', 'versions', 'coder')).toEqual({
      agent: 'coder',
      activeVersion: null,
      versions: [],
    });
  });
});
