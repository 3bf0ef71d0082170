/**
 * `brain config set`, `brain ask`, `brain runs`, `brain inbox` as scripts use them: real processes on a
 * real workspace, the chat model being a scripted OpenAI-compatible server in this process.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { roleOf, type ScriptedModel, startScriptedModel } from '#engine/testing/scripted-model.ts';
import { openAsLocalUser } from '#engine/testing/test-engine.ts';
import { recordRunEnd } from '#engine/writeback/run-end.ts';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;
let model: ScriptedModel;

beforeEach(async () => {
  ws = cliWorkspace('brain-wb-cli-');
  writeFileSync(join(ws.files, 'policy.md'), '# Travel\n\nTaxis after 22:00 are reimbursed up to 40 EUR.\n');
  model = await startScriptedModel((req) => {
    const role = roleOf(req);
    if (role === 'chat') return { content: 'Late taxis are reimbursed up to 40 EUR [1].' };
    if (role === 'writer' && !req.messages.some((m) => m.role === 'tool'))
      return {
        toolCalls: [
          {
            name: 'propose',
            arguments: {
              kind: 'rule',
              label: 'Taxi rule',
              body: 'Taxis after 22:00 are reimbursed up to 40 EUR.',
              scope: 'org',
              confidence: 0.5,
            },
          },
          {
            name: 'propose',
            arguments: {
              kind: 'gotcha',
              label: 'Taxi receipts',
              body: 'Keep the paper receipt for every late taxi ride.',
              scope: 'org',
              confidence: 0.6,
            },
          },
          {
            name: 'propose',
            arguments: {
              kind: 'gotcha',
              label: 'Taxi account',
              body: 'The taxi company account password is hunter2.',
              scope: 'org',
              confidence: 0.9,
              sensitive: true,
            },
          },
        ],
      };
    return { content: 'done' };
  });
  await ws.brainText('add', ws.files);
  await ws.brainText('index');
});
afterEach(async () => {
  await model.close();
  ws.remove();
});

describe('brain ask, config, runs and inbox', () => {
  it('answers with passages and modelOff without a model, then with the model once configured', async () => {
    const off = await ws.brainJson<{ answer: string; modelOff: boolean; citations: unknown[] }>(
      'ask',
      'are taxis reimbursed',
    );
    expect(off).toMatchObject({ modelOff: true, answer: expect.stringMatching(/chat model is off/) });
    expect(off.citations.length).toBeGreaterThan(0);

    await ws.brainText('config', 'set', 'model.baseUrl', model.url);
    await ws.brainText('config', 'set', 'model.name', 'scripted');
    await ws.brainText('config', 'set', 'model.key', 'sk-cli-key-0001');
    expect(statSync(join(ws.home, 'model-key')).mode & 0o777).toBe(0o600);
    expect(await ws.brainJson('config', 'get')).toMatchObject({
      enabled: true,
      hasKey: true,
      model: 'scripted',
    });
    expect(await ws.brainText('config', 'test')).toMatch(/Connected/);
    expect(model.requests.some(() => true)).toBe(true);

    const on = await ws.brainJson<{
      answer: string;
      modelOff: boolean;
      citations: { n: number; citation: { lineStart: number } }[];
    }>('ask', 'are taxis reimbursed');
    expect(on).toMatchObject({ modelOff: false, answer: 'Late taxis are reimbursed up to 40 EUR [1].' });
    expect(on.citations[0]).toMatchObject({ n: 1, citation: { lineStart: expect.any(Number) } });
  });

  it('runs the write-back of ended runs, lists them, and decides the inbox', async () => {
    await ws.brainText('config', 'set', 'model.baseUrl', model.url);
    await ws.brainText('config', 'set', 'model.name', 'scripted');
    // The same local member as the `brain` processes (BRAIN_USER).
    const engine = openAsLocalUser('tester', { home: ws.home, modelDir: ws.modelDir });
    recordRunEnd(engine.db, {
      run: 'run-cli',
      workspaceId: engine.workspaceId,
      user: 'tester',
      agent: 'script',
      status: 'succeeded',
      workProducts: 'Found that taxis after 22:00 are reimbursed up to 40 EUR; keep paper receipts.',
      startedAt: null,
    });
    await engine.close();
    const { runs } = await ws.brainJson<{ runs: { id: string; pass: { reviewed: number } | null }[] }>(
      'runs',
      '--process',
    );
    expect(runs).toEqual([
      expect.objectContaining({ id: 'run-cli', pass: expect.objectContaining({ reviewed: 3 }) }),
    ]);
    expect(await ws.brainText('runs')).toMatch(/run-cli .* 3 proposed: 0 written, 3 to review/);

    const inbox = await ws.brainJson<{ pending: number; items: { id: string; label: string }[] }>('inbox');
    expect(inbox.pending).toBe(3);
    const [first, second, account] = inbox.items;
    const approved = await ws.brainJson<{ edited: boolean; itemId: string }>(
      'inbox',
      'approve',
      first?.id ?? '',
      '--edit-body',
      'Taxis after 22:00 are reimbursed up to 45 EUR since May.',
    );
    expect(approved.edited).toBe(true);
    const read = await ws.brainJson<{ text: string }>('read', approved.itemId);
    expect(read.text).toContain('45 EUR since May');
    await expect(ws.brainText('inbox', 'reject', second?.id ?? '')).rejects.toThrow(/reason/);
    expect(await ws.brainJson('inbox', 'reject', second?.id ?? '', '--reason', 'duplicate')).toMatchObject({
      state: 'rejected',
    });
    // [W5] A sensitive one is approved as it is only with --confirm-sensitive.
    expect(account?.label).toBe('Taxi account');
    await expect(ws.brainText('inbox', 'approve', account?.id ?? '')).rejects.toThrow(
      /flagged sensitive.*--confirm-sensitive/,
    );
    expect((await ws.brainJson<{ pending: number }>('inbox')).pending).toBe(1);
    expect(await ws.brainJson('inbox', 'approve', account?.id ?? '', '--confirm-sensitive')).toMatchObject({
      state: 'approved',
      edited: false,
    });
    expect((await ws.brainJson<{ pending: number }>('inbox')).pending).toBe(0);
  });
});
