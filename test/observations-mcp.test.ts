/**
 * Observations through the real processes (docs/AGENTS.md [G1], [G2]): an agent records
 * observations over MCP across two runs (`brain mcp --agent coder --run R`, real processes), a
 * script records for its agent with `brain observe --agent`, a person's feedback is `human_*`, and
 * `brain observations` lists them with agent and run. No model anywhere.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';
import { callTool, mcpAgent } from './mcp-agent.ts';

let ws: CliWorkspace;
const clients: Client[] = [];

type Observation = {
  id: string;
  agent: string | null;
  type: string;
  text: string | null;
  payload: Record<string, unknown> | null;
  importance: number;
  scope: string;
  user: string;
  run: string | null;
};
type Listed = { observations: Observation[]; total: number };

const errorText = (r: Record<string, unknown>) => JSON.stringify(r.content);

beforeAll(async () => {
  ws = cliWorkspace('brain-observations-');
  expect((await ws.brainJson<Listed>('observations')).total).toBe(0);
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  ws.remove();
});

describe('[G1] an agent observes over MCP across runs', () => {
  it('records with the server’s agent and run; human_* and a named agent are refused', async () => {
    const first = await mcpAgent(ws, 'coder', clients, '--run', 'run-a');
    const tools = (await first.listTools()).tools;
    const observeTool = tools.find((t) => t.name === 'brain_observe');
    expect(observeTool?.annotations?.readOnlyHint).toBe(false);
    expect(Object.keys(observeTool?.inputSchema.properties ?? {}).sort()).toEqual([
      'importance',
      'payload',
      'text',
      'type',
    ]);
    const a = await callTool<{ observation: Observation }>(first, 'brain_observe', {
      type: 'gotcha',
      text: 'A flag in next.config.ts silently breaks middleware.',
      importance: 0.8,
    });
    expect(a.observation).toMatchObject({
      agent: 'coder',
      run: 'run-a',
      user: 'tester',
      scope: 'user:tester',
    });
    await callTool(first, 'brain_observe', { type: 'codebase_pattern', text: 'Handlers live in commands/.' });

    const human = await first.callTool({
      name: 'brain_observe',
      arguments: { type: 'human_feedback', text: 'x' },
    });
    expect(human.isError).toBe(true);
    expect(errorText(human)).toMatch(/human_\* types are people's feedback/);
    const named = await first.callTool({
      name: 'brain_observe',
      arguments: { type: 'gotcha', text: 'x', agent: 'someone-else' },
    });
    expect(named.isError).toBe(true);
    const neither = await first.callTool({ name: 'brain_observe', arguments: { type: 'gotcha' } });
    expect(neither.isError).toBe(true);
    expect(errorText(neither)).toMatch(/text: give text or payload/);
    await first.close();

    const second = await mcpAgent(ws, 'coder', clients, '--run', 'run-b');
    await callTool(second, 'brain_observe', {
      type: 'decision',
      payload: { chose: 'sqlite', over: 'files' },
    });

    const listed = await ws.brainJson<Listed>('observations', '--agent', 'coder');
    expect(listed.total).toBe(3);
    expect(listed.observations.map((o) => [o.agent, o.run, o.type])).toEqual([
      ['coder', 'run-b', 'decision'],
      ['coder', 'run-a', 'codebase_pattern'],
      ['coder', 'run-a', 'gotcha'],
    ]);
    expect(listed.observations[0]?.payload).toEqual({ chose: 'sqlite', over: 'files' });
    expect(listed.observations[2]?.importance).toBe(0.8);
    const important = await ws.brainJson<Listed>('observations', '--min-importance', '0.7');
    expect(important.observations.map((o) => o.type)).toEqual(['gotcha']);
  });
});

describe('[G2] brain observe on the command line', () => {
  it("records a person's human_* feedback and a script's agent, refuses the rest by field", async () => {
    const person = await ws.brainJson<{ observation: Observation }>(
      'observe',
      '--type',
      'human_feedback',
      '--text',
      'Cite the contract, not the email.',
    );
    expect(person.observation).toMatchObject({
      agent: null,
      run: null,
      type: 'human_feedback',
      importance: 0.5,
    });
    const script = await ws.brainJson<{ observation: Observation }>(
      'observe',
      '--agent',
      'nightly-bot',
      '--run',
      'nightly-3',
      '--type',
      'gotcha',
      '--payload',
      '{"test":"flaky","file":"sync.test.ts"}',
      '--importance',
      '0.3',
    );
    expect(script.observation).toMatchObject({
      agent: 'nightly-bot',
      run: 'nightly-3',
      importance: 0.3,
      payload: { test: 'flaky', file: 'sync.test.ts' },
    });

    const refusals: [string[], RegExp][] = [
      [['--type', 'gotcha', '--text', 'x'], /type: a person's observation has a type starting with human_/],
      [['--type', 'human_x', '--run', 'r1', '--text', 'x'], /--run: a run is an agent's/],
      [['--type', 'human_x', '--payload', 'nope'], /--payload: not valid JSON/],
      [['--type', 'human_x', '--payload', '[1]'], /--payload: a JSON object/],
      [['--type', 'human_x', '--text', 'x', '--importance', '2'], /importance/],
      [['--agent', 'bot', '--type', 'human_x', '--text', 'x'], /human_\* types are people's/],
    ];
    for (const [args, message] of refusals) {
      const r = await ws.brain('observe', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error\[validation-failed\]/);
      expect(r.stderr).toMatch(message);
    }
    const all = await ws.brainJson<Listed>('observations');
    expect(all.total).toBe(5);
    const human = await ws.brainJson<Listed>('observations', '--type', 'human_feedback', '--unsynthesized');
    expect(human.observations.map((o) => o.text)).toEqual(['Cite the contract, not the email.']);
    const text = await ws.brainText('observations', '--agent', 'nightly-bot');
    expect(text).toContain('gotcha  importance 0.3  nightly-bot (nightly-3)  [user:tester]');
  });
});
