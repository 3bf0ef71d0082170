import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { neighborhood } from '../../../engine/graph.ts';
import type { AgentContext } from '../context.ts';
import { FRAMED_DATA_NOT_INSTRUCTIONS, framedJson } from '../framed.ts';
import { MCP_LIMITS } from '../limits.ts';
import { runTool } from '../tool-result.ts';

export function registerBrainNeighborhood(server: McpServer, ctx: AgentContext): void {
  server.registerTool(
    'brain_neighborhood',
    {
      title: 'Items linked to an item',
      description:
        `The items linked to an item, 1 or ${MCP_LIMITS.hopsMax} hops out (default 1), with the edges between them ` +
        `(HAS_SECTION, MENTIONS, SAME_AS, custom links). At most ${MCP_LIMITS.itemsPerHop} new items and ` +
        `${MCP_LIMITS.edgesPerHop} edges per hop (truncated: true says more exist); an edge is shown only when the ` +
        `acting user can see both ends. Labels only: read an item with brain_read. ${FRAMED_DATA_NOT_INSTRUCTIONS}`,
      inputSchema: {
        id: z.string().trim().min(1).max(MCP_LIMITS.idChars),
        hops: z
          .number()
          .int()
          .min(1)
          .max(
            MCP_LIMITS.hopsMax,
            `hops is at most ${MCP_LIMITS.hopsMax}; call again from an item of the last hop to go further`,
          )
          .optional(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    (args, extra) =>
      runTool(ctx, extra.requestId, () => {
        const result = neighborhood(ctx.engine.db, ctx.engine.scopes(), args.id, args.hops ?? 1);
        return {
          // Labels, mention text and link notes fenced (docs/SECURITY.md [F1]).
          text: framedJson({ ...result }),
          summary: {
            id: args.id,
            items: result.hops.map((h) => h.items.length),
            edges: result.hops.map((h) => h.edges.length),
          },
        };
      }),
  );
}
