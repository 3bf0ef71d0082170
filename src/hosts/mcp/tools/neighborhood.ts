/** `brain_neighborhood`: the contract's graph.neighborhood for agents (src/shared/api/ops/graph.ts). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { GraphNeighborhood } from '#shared/api/ops/graph.ts';
import type { AgentContext } from '../context.ts';
import { framedJson } from '../framed.ts';
import { registerOperationTool } from '../operation-tool.ts';

export function registerBrainNeighborhood(server: McpServer, ctx: AgentContext): void {
  registerOperationTool(server, ctx, GraphNeighborhood, {
    // Labels, mention text and link notes fenced (docs/SECURITY.md [F1]).
    text: (out) => framedJson({ ...out }),
    summary: (out, args) => ({
      id: args.id,
      items: out.hops.map((h) => h.items.length),
      edges: out.hops.map((h) => h.edges.length),
    }),
  });
}
