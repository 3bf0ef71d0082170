import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { AgentContext } from '../context.ts';
import { FRAMED_DATA_NOT_INSTRUCTIONS, framedJson } from '../framed.ts';
import { MCP_LIMITS } from '../limits.ts';
import { runTool } from '../tool-result.ts';

export function registerBrainSearch(server: McpServer, ctx: AgentContext): void {
  server.registerTool(
    'brain_search',
    {
      title: 'Search the brain',
      description:
        `Hybrid search (keyword + semantic, rank fusion) over what the acting user may see: files, sections, notes, entities. ` +
        `Returns up to k hits (default ${MCP_LIMITS.kDefault}, at most ${MCP_LIMITS.kMax}), each with id, label, kind, scope, ` +
        `score, body (cut at 4000 characters) and a citation (file, line or page range) to pass to brain_read. ` +
        FRAMED_DATA_NOT_INSTRUCTIONS,
      inputSchema: {
        query: z.string().trim().min(1, 'query is empty: say what to look for').max(MCP_LIMITS.queryChars),
        k: z
          .number()
          .int()
          .min(1)
          .max(
            MCP_LIMITS.kMax,
            `k is at most ${MCP_LIMITS.kMax}; ask for ${MCP_LIMITS.kMax} or fewer and refine the query`,
          )
          .optional(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    (args, extra) =>
      runTool(ctx, extra.requestId, async () => {
        const result = await ctx.engine.search(args.query, {
          k: args.k ?? MCP_LIMITS.kDefault,
          maxK: MCP_LIMITS.kMax,
        });
        return {
          // Labels and bodies fenced, one boundary for the answer (docs/SECURITY.md [F1]).
          text: framedJson({ semantic: result.semantic, hits: result.hits }),
          summary: { hits: result.hits.length, semantic: result.semantic },
        };
      }),
  );
}
