/** `brain_observe_mention`: the contract's mentions.observe for agents (src/shared/api/ops/graph.ts). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { MentionsObserve } from '#shared/api/ops/graph.ts';
import type { AgentContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';
import { jsonText } from '../tool-result.ts';

export function registerObserveMention(server: McpServer, ctx: AgentContext): void {
  registerOperationTool(server, ctx, MentionsObserve, {
    text: (out) => jsonText(out),
    summary: (out, args) => ({ item: args.item_id, entity: out.entity.id, created: out.entity.created }),
  });
}
