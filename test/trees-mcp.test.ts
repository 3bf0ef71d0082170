/**
 * An agent answers from a connected repository the way docs/TREES.md teaches it: a real
 * `brain mcp` process, a Git repository connected with `brain tree connect`, then brain_tree at
 * the root, descending by the summaries, brain_tree_read with numbered lines, and a citation of
 * path, lines and commit. Outside the repository's scope, the tree is not there.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';
import { callTool, mcpAgent } from './mcp-agent.ts';

let ws: CliWorkspace;
let repo: string;
let commit: string;
const clients: Client[] = [];

function git(...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'A',
      GIT_AUTHOR_EMAIL: 'a@x',
      GIT_COMMITTER_NAME: 'A',
      GIT_COMMITTER_EMAIL: 'a@x',
    },
  });
}

const agent = (...args: string[]) => mcpAgent(ws, 'reader', clients, ...args);
const tool = callTool;

beforeAll(async () => {
  ws = cliWorkspace('brain-trees-mcp-');
  repo = join(ws.files, 'standards');
  mkdirSync(join(repo, 'billing'), { recursive: true });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), '# Standards\n\nHow the team builds software.\n');
  writeFileSync(
    join(repo, 'billing', 'refunds.md'),
    '# Refunds\n\nHow refunds are decided.\n\n## Approval\n\nRefunds over 500 euros need the finance lead.\nSmaller ones are approved by support.\n',
  );
  git('add', '-A');
  git('commit', '-q', '-m', 'Refund rules');
  commit = git('rev-parse', 'HEAD').trim();
  const connected = await ws.brainJson<{ state: string }>('tree', 'connect', repo);
  expect(connected.state).toBe('ready');
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  ws.remove();
});

describe('[T11] an agent reads a repository top-down over MCP', () => {
  it('descends from the root by the summaries and cites path, lines and commit', async () => {
    const client = await agent();
    const { tools } = await client.listTools();
    for (const name of [
      'brain_tree',
      'brain_tree_read',
      'brain_lookup',
      'brain_grep',
      'brain_backlinks',
      'brain_broken',
    ])
      expect(tools.map((t) => t.name)).toContain(name);
    const root = await tool<{ children: { id: string; summary: string }[] }>(client, 'brain_tree', {});
    const billing = root.children.find((c) => c.id === 'billing/');
    expect(billing).toBeDefined();
    const folder = await tool<{ children: { id: string; title: string }[] }>(client, 'brain_tree', {
      node: 'billing/',
    });
    expect(folder.children.map((c) => c.title)).toEqual(['Refunds']);
    const doc = await tool<{ children: { id: string; title: string }[] }>(client, 'brain_tree', {
      node: 'billing/refunds.md',
    });
    const approval = doc.children.find((c) => c.title === 'Approval');
    const read = await tool<{ text: string; citation: Record<string, unknown> }>(client, 'brain_tree_read', {
      node: approval?.id,
    });
    expect(read.text.split('\n')).toContain('7\tRefunds over 500 euros need the finance lead.');
    expect(read.citation).toEqual({
      nodeId: 'billing/refunds.md#approval',
      path: 'billing/refunds.md',
      lineStart: 5,
      lineEnd: 8,
      commit,
    });
    const grep = await tool<{ matches: { node: string; line: number }[] }>(client, 'brain_grep', {
      text: 'finance lead',
    });
    expect(grep.matches).toEqual([expect.objectContaining({ node: 'billing/refunds.md#approval', line: 7 })]);
    // Every read is in Activity, without its text (the grep's own words are its query).
    const activity = await ws.brainJson<{ entries: { event?: string; kind?: string }[] }>(
      'activity',
      '--limit',
      '50',
    );
    expect(JSON.stringify(activity)).toContain('billing/refunds.md#approval');
    expect(JSON.stringify(activity)).not.toContain('approved by support');
  }, 60_000);

  it('agents are held to their page size', async () => {
    const client = await agent();
    const r = await client.callTool({ name: 'brain_tree', arguments: { limit: 150 } });
    expect(r.isError).toBe(true);
  }, 60_000);
});
