/**
 * [R1] in docs/RETRIEVAL.md: what was just written is answerable at once, in the hosts that stay
 * up. A long-lived `brain mcp` searches (which fills its per-connection term counts with misses),
 * then words it had never seen are written, by another process (`brain add` + `brain index`, a
 * second MCP server's note) or by itself (`add_to_brain`); its next search finds them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;
const clients: Client[] = [];

type Hit = { label: string; body: string };

async function mcpServer(agent: string): Promise<Client> {
  const transport = new StdioClientTransport({ ...ws.command('mcp', '--agent', agent), stderr: 'pipe' });
  const client = new Client({ name: agent, version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<unknown> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  const text = result.content.map((c) => c.text).join('\n');
  if (result.isError) throw new Error(`${name} failed: ${text}`);
  return JSON.parse(text);
}

const search = async (client: Client, query: string) =>
  ((await tool(client, 'brain_search', { query })) as { hits: Hit[] }).hits;

beforeAll(async () => {
  ws = cliWorkspace('brain-r1-');
  writeFileSync(join(ws.files, 'handbook.md'), '# Handbook\n\nInvoices go out on the first working day.\n');
  await ws.brainJson('add', ws.files);
  await ws.brainJson('index');
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  ws.remove();
});

describe('[R1] answerable at once', () => {
  it('[R1] a file another process adds and indexes is found by the next search of a running MCP server', async () => {
    const host = await mcpServer('long-lived');
    // Two terms, so the query is shaped by term counts; both are misses now, and cached as such.
    expect(await search(host, 'quokka marmalade policy')).toEqual([]);
    const quiet = (await tool(host, 'brain_context', {
      message: 'what is the quokka marmalade policy?',
    })) as {
      items: unknown[];
    };
    expect(quiet.items).toEqual([]);

    writeFileSync(
      join(ws.files, 'pantry.md'),
      '# Pantry\n\n## Marmalade\n\nThe quokka marmalade policy: one jar per team, refilled on Fridays.\n',
    );
    await ws.brainJson('add', join(ws.files, 'pantry.md'));
    await ws.brainJson('index');

    const hits = await search(host, 'quokka marmalade policy');
    expect(hits[0]?.body).toContain('quokka marmalade');
    const spoke = (await tool(host, 'brain_context', {
      message: 'what is the quokka marmalade policy?',
    })) as {
      items: { label: string }[];
    };
    expect(spoke.items.length).toBeGreaterThan(0);
  });

  it('[R1] a note another MCP server writes is found by the next search of the first', async () => {
    const first = await mcpServer('reader');
    const second = await mcpServer('writer');
    expect(await search(first, 'wombat lasagna recipe')).toEqual([]);
    await tool(second, 'add_to_brain', {
      kind: 'fact',
      label: 'Wombat lasagna',
      body: 'The wombat lasagna recipe needs three layers and a quiet oven.',
    });
    const hits = await search(first, 'wombat lasagna recipe');
    expect(hits.some((h) => h.label.includes('Wombat lasagna'))).toBe(true);
  });

  it('[R1] a note add_to_brain writes is found by the next brain_search of the same server', async () => {
    const host = await mcpServer('same-process');
    expect(await search(host, 'narwhal tapestry budget')).toEqual([]);
    await tool(host, 'add_to_brain', {
      kind: 'decision',
      label: 'Narwhal tapestry',
      body: 'The narwhal tapestry budget is 400 euros, approved by facilities.',
    });
    const hits = await search(host, 'narwhal tapestry budget');
    expect(hits.some((h) => h.label.includes('Narwhal tapestry'))).toBe(true);
    const ctx = (await tool(host, 'brain_context', { message: 'what is the narwhal tapestry budget?' })) as {
      items: { label: string }[];
    };
    expect(ctx.items.some((i) => i.label.includes('Narwhal tapestry'))).toBe(true);
  });
});
