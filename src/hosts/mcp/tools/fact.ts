/** `brain_fact`: the contract's facts.state for agents (src/shared/api/ops/facts.ts, docs/FACTS.md [K6]). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { FactsState } from '#shared/api/ops/facts.ts';
import type { AgentContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';
import { jsonText } from '../tool-result.ts';

export function registerFact(server: McpServer, ctx: AgentContext): void {
  registerOperationTool(server, ctx, FactsState, {
    text: (out) => jsonText(out),
    summary: (out, args) => ({
      item: args.item_id,
      entity: out.entity.id,
      fact: out.fact.id,
      citations: out.fact.citations.length,
    }),
  });
}
