import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { frameFor } from '../../../engine/framing.ts';
import { inject } from '../../../engine/injection.ts';
import type { AgentContext } from '../context.ts';
import { FRAMED_DATA_NOT_INSTRUCTIONS, framedJson } from '../framed.ts';
import { MCP_LIMITS } from '../limits.ts';
import { runTool } from '../tool-result.ts';

export function registerBrainContext(server: McpServer, ctx: AgentContext): void {
  server.registerTool(
    'brain_context',
    {
      title: 'What the brain knows that matters for this turn',
      description:
        'The read injection for an agent turn: give the latest message (and up to 4 anchor item ids: the item being ' +
        'worked on, pinned items). Answers with at most 8 cited items in about 1200-1500 tokens, or nothing when ' +
        'nothing is relevant enough (small talk injects nothing); `reason` says why either way. ' +
        FRAMED_DATA_NOT_INSTRUCTIONS,
      inputSchema: {
        message: z
          .string()
          .max(
            MCP_LIMITS.messageChars,
            `message is over ${MCP_LIMITS.messageChars} characters: send the latest message only`,
          ),
        anchors: z
          .array(z.string().trim().min(1).max(MCP_LIMITS.idChars))
          .max(
            MCP_LIMITS.anchorsMax,
            `at most ${MCP_LIMITS.anchorsMax} anchors: keep the items that matter most`,
          )
          .optional(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    (args, extra) =>
      runTool(ctx, extra.requestId, async () => {
        const out = await inject(ctx.engine, {
          message: args.message,
          anchors: args.anchors,
          surface: 'agent',
        });
        const answer = {
          reason: out.reason,
          semantic: out.semantic,
          floor: out.floor,
          tokens: out.tokens,
          anchors: out.anchors,
          items: out.items.map((i) => ({
            id: i.id,
            label: i.label,
            kind: i.kind,
            storageKind: i.storageKind,
            scope: i.scope,
            score: i.score,
            isAnchor: i.isAnchor,
            citation: i.citation,
          })),
          context: out.text,
        };
        // `context` is fenced already; the labels in `items` get the same boundary (docs/SECURITY.md [F1]).
        return {
          text: framedJson(answer, frameFor(out.boundary)),
          summary: { injected: out.items.length, reason: out.reason },
        };
      }),
  );
}
