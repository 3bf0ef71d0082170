import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { writeTx } from '../../../engine/db/driver.ts';
import { ENTITY_KINDS, observeMention } from '../../../engine/graph.ts';
import { getRow, vecUpsert } from '../../../engine/items.ts';
import { type AgentContext, originOf } from '../context.ts';
import { MCP_LIMITS } from '../limits.ts';
import { jsonText, runTool } from '../tool-result.ts';
import { vectorFor } from '../vectors.ts';

export function registerObserveMention(server: McpServer, ctx: AgentContext): void {
  server.registerTool(
    'brain_observe_mention',
    {
      title: 'Record a mention of a person, company, project or other thing',
      description:
        'Attach a name that occurs in an item (a person, company, project or other thing) to that item. Say where: ' +
        "span {start, end} (character offsets in the item's text as brain_read returns it for the whole item) or " +
        'quote (the exact words). The entity is found by its normalised name (case, accents, punctuation and legal ' +
        'suffixes such as Inc, Ltd, GmbH, S.r.l. ignored) in the scope of the item, or created there; a MENTIONS edge ' +
        'records the mention. Nothing is merged: the same name in another scope is another entity.',
      inputSchema: {
        item_id: z.string().trim().min(1).max(MCP_LIMITS.idChars),
        name: z.string().trim().min(1).max(MCP_LIMITS.nameChars),
        kind: z.enum(ENTITY_KINDS),
        span: z
          .object({ start: z.number().int().min(0), end: z.number().int().min(1) })
          .optional()
          .describe('character offsets, end exclusive'),
        quote: z.string().min(1).max(MCP_LIMITS.quoteChars).optional(),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args, extra) =>
      runTool(ctx, extra.requestId, async () => {
        const { engine } = ctx;
        const result = observeMention(
          engine.db,
          engine.workspaceId,
          engine.scopes(),
          { itemId: args.item_id, name: args.name, kind: args.kind, span: args.span, quote: args.quote },
          originOf(ctx),
        );
        if (result.entity.created) {
          const vector = await vectorFor(engine, `${result.entity.label}\n${result.entity.label}`);
          if (vector) {
            writeTx(engine.db, () => {
              const row = getRow(engine.db, result.entity.id);
              if (row) vecUpsert(engine.db, row, vector.model, vector.vector);
            });
          }
        }
        return {
          text: jsonText(result),
          summary: { item: args.item_id, entity: result.entity.id, created: result.entity.created },
        };
      }),
  );
}
