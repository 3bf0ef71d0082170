import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { AgentContext } from '../context.ts';
import { MCP_LIMITS } from '../limits.ts';
import { handOffWriteback, RUN_STATUSES, recordRunEnd } from '../runs.ts';
import { jsonText, runTool } from '../tool-result.ts';

export function registerRunEnd(server: McpServer, ctx: AgentContext): void {
  server.registerTool(
    'brain_run_end',
    {
      title: 'Hand in the end of a run',
      description:
        'Record that this run ended, with its status and its work products (what was done, decided, learned: at most ' +
        `${MCP_LIMITS.workProductsChars} characters). Succeeded and blocked runs go to a later write-back pass that ` +
        'may propose durable knowledge from them; failed and cancelled runs are kept but skipped. run_id defaults to ' +
        "this server's run. Ending the same run again replaces what it handed in until write-back has started.",
      inputSchema: {
        status: z.enum(RUN_STATUSES),
        work_products: z
          .string()
          .trim()
          .max(
            MCP_LIMITS.workProductsChars,
            `work_products is over ${MCP_LIMITS.workProductsChars} characters: summarise what was done and learned`,
          ),
        run_id: z.string().trim().min(1).max(MCP_LIMITS.runIdChars).optional(),
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
        const run = args.run_id ?? ctx.run;
        const record = recordRunEnd(ctx.engine.db, {
          run,
          workspaceId: ctx.engine.workspaceId,
          user: ctx.engine.user,
          agent: ctx.agentName(),
          status: args.status,
          workProducts: args.work_products,
          startedAt: run === ctx.run ? ctx.startedAt : null,
        });
        // This process may exit right after the call: a live owner runs the pass ([J4], docs/WORKSPACE.md).
        const handoff = record.writeback === 'pending' ? handOffWriteback(ctx.engine, run) : null;
        return {
          text: jsonText({ ...record, chars: args.work_products.length }),
          summary: { ...record, ...(handoff ? { writebackBy: handoff.by } : {}) },
        };
      }),
  );
}
