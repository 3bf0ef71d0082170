import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createFrame } from '../../../engine/framing.ts';
import type { ReadResult } from '../../../engine/read.ts';
import { AppError } from '../../../shared/errors.ts';
import type { AgentContext } from '../context.ts';
import { FRAMED_DATA_NOT_INSTRUCTIONS } from '../framed.ts';
import { MCP_LIMITS } from '../limits.ts';
import { runTool } from '../tool-result.ts';

/**
 * Numbered lines, cut at MCP_LIMITS.readChars with a pointer to the next range. The first lines are
 * ours (id, range, the framing rule); the item's own words (label, kind, file label, text) sit in one
 * fence with this answer's boundary, and the cut note comes after it (docs/SECURITY.md [F1]).
 */
export function formatRead(result: ReadResult): string {
  const fileLabel = result.citation?.fileLabel ?? '';
  // Drawn against every text shown below, so none of it can carry the token.
  const frame = createFrame([result.label, result.kind, fileLabel, result.text]);
  const range = `${result.lineStart}-${result.lineEnd}`;
  const head =
    `id ${result.id}  [${result.storageKind}, ${result.scope}]  lines ${range}\n${frame.rule()}\n` +
    `${frame.open({ id: result.id, lines: range })}\n`;
  const close = `${frame.close()}\n`;
  const title = `${result.label}  [${result.kind}]${fileLabel ? ` of ${fileLabel}` : ''}\n`;
  const width = String(result.lineEnd).length;
  let out = head + title;
  const lines = result.text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = `${String(result.lineStart + i).padStart(width)}  ${lines[i]}\n`;
    const next = result.lineStart + i;
    const cutNote = `… cut at ${MCP_LIMITS.readChars} characters: read from_line ${next} to_line ${result.lineEnd} next.\n`;
    // Room for the closing marker and the note, so the fence always closes within the limit.
    if (out.length + line.length + close.length + cutNote.length > MCP_LIMITS.readChars) {
      return `${out}${close}${cutNote}`;
    }
    out += line;
  }
  return out + close;
}

export function registerBrainRead(server: McpServer, ctx: AgentContext): void {
  server.registerTool(
    'brain_read',
    {
      title: 'Read an item or a cited range',
      description:
        'Read a whole item (file, section, note, entity) or just a line range of it, such as the lineStart-lineEnd of ' +
        'a search citation, so you never load a whole document to check one passage. Lines are numbered as in the ' +
        `file. Long answers are cut at ${MCP_LIMITS.readChars} characters with the range to read next. ` +
        FRAMED_DATA_NOT_INSTRUCTIONS,
      inputSchema: {
        id: z.string().trim().min(1).max(MCP_LIMITS.idChars),
        from_line: z.number().int().min(1).optional(),
        to_line: z.number().int().min(1).optional(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    (args, extra) =>
      runTool(ctx, extra.requestId, async () => {
        if (args.to_line !== undefined && args.from_line === undefined) {
          throw new AppError('validation-failed', 'to_line needs from_line too.');
        }
        const from = args.from_line;
        const to = args.to_line ?? Number.MAX_SAFE_INTEGER;
        if (from !== undefined && to < from) {
          throw new AppError('validation-failed', `to_line (${to}) must not be before from_line (${from}).`);
        }
        const result = await ctx.engine.read(args.id, from === undefined ? undefined : { from, to });
        return {
          text: formatRead(result),
          summary: { id: result.id, lines: [result.lineStart, result.lineEnd] },
        };
      }),
  );
}
