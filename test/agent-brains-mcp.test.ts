/**
 * The brain mounts into the next run, through the real processes (docs/AGENTS.md [G7]–[G10]): an
 * agent records observations over MCP (`brain mcp --agent coder --run R` on stdio), `brain agents
 * synthesize` makes a version with the scripted OpenAI-compatible model, the next run reads it
 * through the resource, `brain_agent_brain` and its first `brain_context` answer, and
 * `brain_run_end` stores the version; a person's thumbs on the run and the effectiveness, the
 * comparison and sharing on the command line.
 */
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatRequest, type ScriptedModel, startScriptedModel } from '#engine/testing/scripted-model.ts';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';
import { callTool, mcpAgent } from './mcp-agent.ts';

let ws: CliWorkspace;
let model: ScriptedModel;
const clients: Client[] = [];

/** A brain citing every observation the synthesis request listed, one gotcha each. */
function brainFor(req: ChatRequest): { content: string } {
  const text = String(req.messages.find((m) => m.role === 'user')?.content ?? '');
  const ids = [...text.matchAll(/^\d+\. id (o_[0-9a-f]{20}),/gm)].map((m) => m[1] as string);
  return {
    content: JSON.stringify({
      summary: 'What coder learned.',
      sections: {
        gotchas: ids.map((id, i) => ({ text: `lesson ${i}: mind the lease file`, observation_ids: [id] })),
      },
    }),
  };
}

type Served = {
  agent: string;
  version: number | null;
  brain: { sections: Record<string, unknown[]> } | null;
};
type Effectiveness = {
  agent: string;
  versions: {
    number: number;
    runs: number;
    ended: number;
    succeeded: number;
    rate: number | null;
    thumbsUp: number;
  }[];
  trend: string;
  comparison: null | { a: number; b: number; split: number };
};

function brainVersionOf(run: string): number | null | undefined {
  const db = new Database(join(ws.home, 'brain.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT brain_version FROM runs WHERE id = ?').get(run) as
      | { brain_version: number | null }
      | undefined;
    return row?.brain_version;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  ws = cliWorkspace('brain-agent-mount-');
  model = await startScriptedModel((req) => brainFor(req));
  await ws.brainText('config', 'set', 'model.baseUrl', model.url);
  await ws.brainText('config', 'set', 'model.name', 'scripted');
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await model.close();
  ws.remove();
});

// Each step is a process: seconds each on a loaded two-core machine.
describe('[G7] the brain mounts into the next run over MCP', { timeout: 300_000 }, () => {
  it('is read through the resource, brain_agent_brain and the first brain_context; brain_run_end stores it', async () => {
    const first = await mcpAgent(ws, 'coder', clients, '--run', 'run-1');
    const none = await first.callTool({ name: 'brain_agent_brain', arguments: {} });
    expect(none.isError).toBeFalsy();
    expect(none.structuredContent).toEqual({ agent: 'coder', version: null, brain: null });
    expect(JSON.stringify(none.content)).toMatch(/no brain yet/);
    expect(first.getInstructions()).toMatch(/brain_agent_brain/);
    await callTool(first, 'brain_observe', {
      type: 'gotcha',
      text: 'The lease file has no owner line.',
      importance: 0.9,
    });
    await callTool(first, 'brain_observe', { type: 'decision', text: 'Use the lease, not a lock file.' });
    await callTool(first, 'brain_run_end', { status: 'failed', work_products: 'Tried the lock file.' });
    await first.close();
    expect(brainVersionOf('run-1')).toBeNull();

    const made = await ws.brainJson<{ state: string; version: { number: number } }>(
      'agents',
      'synthesize',
      'coder',
      '--force',
    );
    expect(made).toMatchObject({ state: 'synthesized', version: { number: 1 } });

    const next = await mcpAgent(ws, 'coder', clients, '--run', 'run-2');
    const { resources } = await next.listResources();
    expect(resources).toEqual([
      expect.objectContaining({ uri: 'brain://agent/coder/brain', mimeType: 'application/json' }),
    ]);
    const read = await next.readResource({ uri: 'brain://agent/coder/brain' });
    const doc = JSON.parse(String((read.contents[0] as { text: string }).text)) as Served;
    expect(doc).toMatchObject({ agent: 'coder', version: 1 });
    expect(doc.brain?.sections.gotchas).toHaveLength(2);
    await expect(next.readResource({ uri: 'brain://agent/someone-else/brain' })).rejects.toThrow(
      /only its own agent's brain/,
    );
    const served = await callTool<Served>(next, 'brain_agent_brain', {});
    expect(served).toEqual(doc);

    const ctx = await callTool<{
      context: string;
      agentBrain?: { version: number; shown: number; total: number };
    }>(next, 'brain_context', { message: 'How do I take the lease?' });
    expect(ctx.agentBrain).toEqual({ agent: 'coder', version: 1, shown: 2, total: 2 });
    expect(ctx.context).toMatch(
      /Your agent brain \(coder, version 1\)[\s\S]*- lesson 0: mind the lease file/,
    );
    const again = await callTool<{ agentBrain?: unknown }>(next, 'brain_context', { message: 'And then?' });
    expect(again.agentBrain).toBeUndefined();
    await callTool(next, 'brain_run_end', { status: 'succeeded', work_products: 'Took the lease.' });
    await next.close();
    expect(brainVersionOf('run-2')).toBe(1);

    // A run that never read its brain records the version it would have been served.
    const quiet = await mcpAgent(ws, 'coder', clients, '--run', 'run-3');
    await callTool(quiet, 'brain_run_end', { status: 'cancelled', work_products: 'Stopped.' });
    await quiet.close();
    expect(brainVersionOf('run-3')).toBe(1);

    // [G10] A person's thumbs on the run count toward its version ([G8]).
    await ws.brainJson('observe', '--type', 'human_thumbs_up', '--run', 'run-2', '--text', 'Good run.');
    const eff = await ws.brainJson<Effectiveness>('agents', 'effectiveness', 'coder');
    expect(eff).toMatchObject({ agent: 'coder', trend: 'insufficient data', comparison: null });
    expect(eff.versions).toEqual([
      expect.objectContaining({ number: 1, runs: 2, ended: 2, succeeded: 1, rate: 0.5, thumbsUp: 1 }),
    ]);
  });

  it('[G9] a comparison serves each run its version by run id; [G10] share is the admin’s', async () => {
    await ws.brainJson('observe', '--agent', 'coder', '--type', 'gotcha', '--text', 'A second lesson.');
    await ws.brainJson('agents', 'synthesize', 'coder', '--force');
    const set = await ws.brainJson<{ comparison: { a: number; b: number; split: number } }>(
      'agents',
      'compare',
      'coder',
      '--versions',
      '1,2',
      '--split',
      '50',
    );
    expect(set.comparison).toEqual({ a: 1, b: 2, split: 50 });
    const bad = await ws.brain('agents', 'compare', 'coder', '--versions', '1,7');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/no version 7/);

    const seen = new Set<number>();
    for (const run of ['cmp-a', 'cmp-b', 'cmp-c', 'cmp-d']) {
      const c = await mcpAgent(ws, 'coder', clients, '--run', run);
      const out = await callTool<Served>(c, 'brain_agent_brain', {});
      await callTool(c, 'brain_run_end', { status: 'failed', work_products: 'x' });
      await c.close();
      expect(brainVersionOf(run)).toBe(out.version);
      seen.add(out.version as number);
    }
    expect([...seen].every((v) => v === 1 || v === 2)).toBe(true);
    const eff = await ws.brainJson<Effectiveness>('agents', 'effectiveness', 'coder');
    expect(eff.comparison).toMatchObject({ a: 1, b: 2, split: 50 });
    const text = await ws.brainText('agents', 'effectiveness', 'coder');
    expect(text).toMatch(/comparing v1 and v2/);
    expect(
      (await ws.brainJson<{ comparison: null }>('agents', 'compare', 'coder', '--off')).comparison,
    ).toBeNull();

    const bob = ws.with({ user: 'bob' });
    await ws.brainText('members', 'add', 'bob');
    const refused = await bob.brain('agents', 'share', 'coder', '--scope', 'org');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/local admin only/);
    const shared = await ws.brainJson<{ scope: string; previous: string }>(
      'agents',
      'share',
      'coder',
      '--scope',
      'org',
    );
    expect(shared).toEqual({ agent: 'coder', scope: 'org', previous: 'user:tester' });
  });
});
