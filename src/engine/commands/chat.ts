/**
 * chat.threads, chat.thread, chat.send, chat.delete and chat.remember (src/shared/api/ops/chat.ts),
 * as every surface runs them. A turn goes through the read injection as agents' context does, and
 * is given the current facts of the entities it names (docs/FACTS.md [K15]); the chat model, when
 * one is configured, streams its answer as `chat.delta` events (the app's windows, or the command
 * line's output).
 */
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type { ChatDelete, ChatRemember, ChatSend, ChatThreadGet, ChatThreads } from '#shared/api/ops/chat.ts';
import { deleteThread, getThread, listThreads, sendMessage } from '../chat/chat.ts';
import { factMemories } from '../chat/chat-facts.ts';
import { chatModelFor } from '../chat/chat-model.ts';
import { offReason, readModelConfig } from '../llm/config.ts';
import { inject } from '../search/injection.ts';
import { rememberThread } from '../writeback/runs.ts';
import type { CommandContext } from './types.ts';

async function chatThreads(ctx: CommandContext, _: ParsedInputOf<typeof ChatThreads>) {
  return { threads: listThreads(ctx.engine.db, ctx.engine.user) };
}

async function chatThread(ctx: CommandContext, input: ParsedInputOf<typeof ChatThreadGet>) {
  return getThread(ctx.engine.db, ctx.engine.user, input.id);
}

async function chatSend(
  ctx: CommandContext,
  input: ParsedInputOf<typeof ChatSend>,
): Promise<OutputOf<typeof ChatSend>> {
  const e = ctx.engine;
  const model = await chatModelFor(e, (delta) => ctx.notify?.('chat.delta', delta));
  return sendMessage(
    e.db,
    e.user,
    input,
    async (message, anchors) => {
      const r = await inject(e, { message, anchors: [...anchors], surface: 'chat' });
      return { items: [...r.items, ...factMemories(e.db, e.scopes(), message)], reason: r.reason };
    },
    model,
  );
}

async function chatDelete(ctx: CommandContext, input: ParsedInputOf<typeof ChatDelete>) {
  return { deleted: deleteThread(ctx.engine.db, ctx.engine.user, input.id) };
}

/** The thread becomes a run; a host's write-back loop takes it (told by the host), else a live owner's. */
async function chatRemember(
  ctx: CommandContext,
  input: ParsedInputOf<typeof ChatRemember>,
): Promise<OutputOf<typeof ChatRemember>> {
  const e = ctx.engine;
  const r = rememberThread(e.db, e.workspaceId, e.user, input.threadId);
  return { ...r, modelOn: offReason(readModelConfig(e.db)) === null };
}

export const chatHandlers = {
  'chat.threads': chatThreads,
  'chat.thread': chatThread,
  'chat.send': chatSend,
  'chat.delete': chatDelete,
  'chat.remember': chatRemember,
};
