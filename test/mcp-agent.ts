/**
 * An agent over MCP for process tests: a real `brain mcp --agent NAME` started by the MCP SDK's
 * stdio transport, and its tools called as an MCP client calls them.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Cli } from './cli-process.ts';

/** Connects a client named `name` to `brain mcp --agent <name> …args`; `opened` collects it for closing. */
export async function mcpAgent(cli: Cli, name: string, opened: Client[], ...args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    ...cli.command('mcp', '--agent', name, ...args),
    stderr: 'pipe',
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  opened.push(client);
  return client;
}

/** A tool's structured answer; an error answer throws with its content. */
export async function callTool<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(JSON.stringify(r.content));
  return r.structuredContent as T;
}
