import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { linkItems } from '../../../engine/graph.ts';
import { type AgentContext, originOf } from '../context.ts';
import { MCP_LIMITS } from '../limits.ts';
import { jsonText, runTool } from '../tool-result.ts';

export function registerBrainLink(server: McpServer, ctx: AgentContext): void {
  server.registerTool(
    'brain_link',
    {
      title: 'Link two items',
      description:
        'Make a custom edge between two items the acting user can see, with a free-text type ("depends on", ' +
        '"owned by", "SAME_AS"), stored as UPPER_SNAKE_CASE. SAME_AS is soft: it records that two items look like ' +
        'the same thing and never merges them; both keep their ids, text and scopes. Linking the same pair with the ' +
        'same type again updates the note on that edge.',
      inputSchema: {
        from_id: z.string().trim().min(1).max(MCP_LIMITS.idChars),
        to_id: z.string().trim().min(1).max(MCP_LIMITS.idChars),
        type: z.string().trim().min(1).max(MCP_LIMITS.linkTypeChars),
        note: z.string().max(MCP_LIMITS.linkNoteChars).optional(),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args, extra) =>
      runTool(ctx, extra.requestId, () => {
        const { engine } = ctx;
        const edge = linkItems(
          engine.db,
          engine.scopes(),
          { from: args.from_id, to: args.to_id, type: args.type, note: args.note },
          originOf(ctx),
        );
        return { text: jsonText(edge), summary: { edge: edge.id, type: edge.type } };
      }),
  );
}
