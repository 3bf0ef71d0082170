import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ownedItemId } from '../../../engine/ids.ts';
import { getRow } from '../../../engine/items.ts';
import { upsertNote } from '../../../engine/notes.ts';
import { assertCanWrite, canSee, parseScope } from '../../../engine/scope.ts';
import { AppError } from '../../../shared/errors.ts';
import { type AgentContext, originOf } from '../context.ts';
import { MCP_LIMITS } from '../limits.ts';
import { jsonText, runTool } from '../tool-result.ts';
import { vectorFor } from '../vectors.ts';

export function registerAddToBrain(server: McpServer, ctx: AgentContext): void {
  server.registerTool(
    'add_to_brain',
    {
      title: 'Write a note to the brain',
      description:
        'Write a durable fact straight into the brain (no review): a decision, owner, definition, rule or gotcha that ' +
        'will still matter in a month, not live task state. kind is free text ("decision", "gotcha"). scope is org ' +
        '(default), team:<id> or user:<id>, and must be one the acting user belongs to. With source_key, writing the ' +
        'same key again updates that note in place (use a stable key such as "pricing/refund-policy"); without it, ' +
        'every call makes a new note. Nothing is ever merged or deleted. Returns the note id.',
      inputSchema: {
        kind: z.string().trim().min(1).max(MCP_LIMITS.kindChars),
        label: z
          .string()
          .trim()
          .min(1, 'label is empty: give the note a short title')
          .max(MCP_LIMITS.labelChars, `label is over ${MCP_LIMITS.labelChars} characters: use a short title`),
        body: z
          .string()
          .trim()
          .min(1, 'body is empty: write the fact itself')
          .max(
            MCP_LIMITS.bodyChars,
            `body is over ${MCP_LIMITS.bodyChars} characters: write the durable fact, not the whole document (split it into several notes)`,
          ),
        scope: z.string().trim().max(MCP_LIMITS.scopeChars).optional(),
        source_key: z.string().trim().min(1).max(MCP_LIMITS.sourceKeyChars).optional(),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args, extra) =>
      runTool(ctx, extra.requestId, async () => {
        const { engine } = ctx;
        const scope = parseScope(args.scope);
        assertCanWrite(engine.db, engine.user, scope);
        const origin = originOf(ctx);
        const sourceKey = args.source_key ?? `agent:${ctx.agentName()}:${ctx.run}:${randomUUID()}`;
        const existing = getRow(engine.db, ownedItemId(engine.workspaceId, 'note', engine.user, sourceKey));
        if (existing && !canSee(engine.scopes(), existing.scope)) {
          // Someone else's note under that key: never overwrite (or reveal) what this user cannot see.
          throw new AppError('conflict', `source_key "${sourceKey}" is taken; choose another key.`);
        }
        const vector = await vectorFor(engine, `${args.label}\n${args.body}`);
        const row = upsertNote(
          engine.db,
          engine.workspaceId,
          { kind: args.kind, label: args.label, body: args.body, scope, sourceKey, ...origin },
          vector,
        );
        const result = {
          id: row.id,
          created: !existing,
          version: row.version,
          scope: row.scope,
          source_key: row.source_key,
          semantic: vector !== null,
        };
        return { text: jsonText(result), summary: { id: row.id, created: !existing, scope } };
      }),
  );
}
