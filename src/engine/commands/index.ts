/**
 * The engine's commands: every operation of the contract (src/shared/api/ops) with the one
 * function that runs it. Every surface calls through `runCommand`: the input is checked against
 * the surface's schema (its limits), the command owns every scope rule, and the answer is checked
 * against the operation's output schema (so every surface answers the same shape). A missing or
 * doubled implementation fails at load, not at the first call.
 */

import { OPERATIONS as CONTRACT_OPERATIONS } from '#shared/api/contract.ts';
import {
  inputOn,
  type Operation,
  type OutputOf,
  offeredOn,
  type ParsedInputOf,
} from '#shared/api/operation.ts';
import { AppError } from '#shared/errors.ts';
import { nulAt } from '#shared/nul.ts';
import { accessHandlers } from './access.ts';
import { agentRunHandlers } from './agent-runs.ts';
import { agentHandlers } from './agents.ts';
import { backupHandlers } from './backups.ts';
import { chatHandlers } from './chat.ts';
import { compileHandlers } from './compile.ts';
import { exportHandlers } from './export.ts';
import { factHandlers } from './facts.ts';
import { fileHandlers } from './files.ts';
import { graphHandlers } from './graph.ts';
import { inboxHandlers } from './inbox.ts';
import { itemHandlers } from './items.ts';
import { knowledgeHandlers } from './knowledge.ts';
import { notesAdd } from './notes.ts';
import { contextGet, itemsRead, searchQuery } from './retrieval.ts';
import { settingsHandlers } from './settings.ts';
import { teamHandlers } from './team.ts';
import { treeHandlers } from './trees.ts';
import type { CommandContext } from './types.ts';
import { versionHandlers } from './versions.ts';
import { workspaceHandlers } from './workspace.ts';

type Handler = (ctx: CommandContext, input: never) => Promise<unknown>;

const HANDLERS: Record<string, Handler> = {
  'search.query': searchQuery,
  'items.read': itemsRead,
  'context.get': contextGet,
  'notes.add': notesAdd,
  ...graphHandlers,
  ...factHandlers,
  ...compileHandlers,
  ...inboxHandlers,
  ...knowledgeHandlers,
  ...teamHandlers,
  ...settingsHandlers,
  ...backupHandlers,
  ...exportHandlers,
  ...fileHandlers,
  ...itemHandlers,
  ...chatHandlers,
  ...workspaceHandlers,
  ...treeHandlers,
  ...accessHandlers,
  ...versionHandlers,
  ...agentHandlers,
  ...agentRunHandlers,
};

const OPERATIONS: readonly Operation[] = CONTRACT_OPERATIONS;

const byName = new Map<string, Operation>();
for (const op of OPERATIONS) {
  if (byName.has(op.name)) throw new Error(`operation ${op.name} is declared twice`);
  if (!HANDLERS[op.name]) throw new Error(`operation ${op.name} has no engine command`);
  byName.set(op.name, op);
}
for (const name of Object.keys(HANDLERS)) {
  if (!byName.has(name)) throw new Error(`engine command ${name} is not in the contract`);
}

function invalid(name: string, issue: { path: PropertyKey[]; message: string } | undefined): AppError {
  const where = issue?.path.map(String).join('.') || 'input';
  return new AppError('validation-failed', `${name}: ${where}: ${issue?.message ?? 'is invalid'}.`);
}

/** Runs an operation by name, as a transport does: unknown names and inputs are refused. */
export async function runCommand(ctx: CommandContext, name: string, input: unknown): Promise<unknown> {
  const op = byName.get(name);
  if (!op || !offeredOn(op, ctx.surface))
    throw new AppError('not-found', `Unknown operation ${name.slice(0, 80)}.`);
  const parsed = inputOn(op, ctx.surface).safeParse(input ?? {});
  if (!parsed.success) throw invalid(name, parsed.error.issues[0]);
  // Neither store keeps a NUL, and the server refuses an op holding one: refused here, on every surface.
  const nul = nulAt(parsed.data);
  if (nul)
    throw new AppError(
      'validation-failed',
      `${nul} holds a NUL character (U+0000): remove it and try again.`,
    );
  const handler = HANDLERS[name] as (ctx: CommandContext, input: unknown) => Promise<unknown>;
  const answer = op.output.safeParse(await handler(ctx, parsed.data));
  if (!answer.success) {
    const issue = answer.error.issues[0];
    throw new AppError(
      'internal',
      `${name} answered outside its contract (${issue?.path.join('.')}: ${issue?.message}).`,
    );
  }
  return answer.data;
}

/** The same, typed, for callers that hold the operation. */
export async function run<O extends Operation>(
  ctx: CommandContext,
  op: O,
  input: ParsedInputOf<O> | Record<string, unknown>,
): Promise<OutputOf<O>> {
  return (await runCommand(ctx, op.name, input)) as OutputOf<O>;
}
