/**
 * Chat: threads of questions answered from the brain with citations (by the chat model when one
 * is configured, else the cited passages themselves), and "Remember this", which makes a thread a
 * run for the write-back pass. Declared once (src/shared/api/operation.ts) for the app and the
 * `brain` command (`brain ask`, `brain chat`); a thread is its member's own. Agents have
 * `brain_context` and `brain_search` instead (`notOn`).
 */
import { z } from 'zod';
import { ChatSendSchema, ChatThreadListSchema, ChatThreadSchema } from '../app-schemas.ts';
import { defineOperation, type Surface } from '../operation.ts';

const CHAT_LIMITS = { messageChars: 8000, anchors: 4, idChars: 200 } as const;
const NOT_FOR_AGENTS: readonly Surface[] = ['agent'];
const id = z.string().min(1).max(CHAT_LIMITS.idChars);

export const ChatThreads = defineOperation({
  name: 'chat.threads',
  summary: 'Your chat threads, newest first',
  input: z.object({}).strict(),
  output: ChatThreadListSchema,
  mutates: false,
  notOn: NOT_FOR_AGENTS,
});

export const ChatThreadGet = defineOperation({
  name: 'chat.thread',
  summary: 'One chat thread with every turn and its citations',
  input: z.object({ id }).strict(),
  output: ChatThreadSchema,
  mutates: false,
  notOn: NOT_FOR_AGENTS,
});

export const ChatSend = defineOperation({
  name: 'chat.send',
  summary: 'Ask the brain: an answer grounded in the memories it finds, with citations',
  input: z
    .object({
      threadId: id.optional(),
      message: z
        .string()
        .trim()
        .min(1, 'is empty: ask a question')
        .max(CHAT_LIMITS.messageChars, `is over ${CHAT_LIMITS.messageChars} characters`),
      anchors: z.array(id).max(CHAT_LIMITS.anchors).optional(),
    })
    .strict(),
  output: ChatSendSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const ChatDelete = defineOperation({
  name: 'chat.delete',
  summary: 'Delete one of your chat threads',
  input: z.object({ id }).strict(),
  output: z.object({ deleted: z.boolean() }),
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const ChatRemember = defineOperation({
  name: 'chat.remember',
  summary: 'Remember this thread: it becomes a run for the write-back pass (proposals reach the inbox)',
  input: z.object({ threadId: id }).strict(),
  output: z.object({
    run: z.string(),
    writeback: z.enum(['pending', 'running', 'done', 'skipped']),
    created: z.boolean(),
    modelOn: z.boolean(),
  }),
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const CHAT_OPERATIONS = [ChatThreads, ChatThreadGet, ChatSend, ChatDelete, ChatRemember] as const;
