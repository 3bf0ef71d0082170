/** `brain_link`: the contract's links.add for agents (src/shared/api/ops/graph.ts). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LinksAdd } from '#shared/api/ops/graph.ts';
import type { AgentContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';
import { jsonText } from '../tool-result.ts';

export function registerBrainLink(server: McpServer, ctx: AgentContext): void {
  registerOperationTool(server, ctx, LinksAdd, {
    text: (out) => jsonText(out),
    summary: (out) => ({ edge: out.id, type: out.type }),
  });
}
