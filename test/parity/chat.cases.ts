/**
 * Parity rows for chat (src/shared/api/ops/chat.ts) and the workspace as a whole
 * (ops/workspace.ts): alike on IPC, HTTP and the command line where it offers them (`brain ask`,
 * `brain chat`, `brain status`); no MCP tool (agents have brain_context).
 */
import type { Case, ParityWorld } from './case.ts';

export function chatCases(_w: ParityWorld): Case[] {
  return [
    { name: 'no threads yet', op: 'chat.threads', input: {}, cli: ['chat', 'list'] },
    { name: 'an empty question', op: 'chat.send', input: { message: '   ' }, cli: ['ask', '   '] },
    {
      name: 'a question too long',
      op: 'chat.send',
      input: { message: 'why '.repeat(2500) },
      cli: ['ask', 'why '.repeat(2500)],
    },
    { name: 'an unknown thread', op: 'chat.thread', input: { id: 'nope' }, cli: ['chat', 'show', 'nope'] },
    {
      name: 'deleting an unknown thread',
      op: 'chat.delete',
      input: { id: 'nope' },
      cli: ['chat', 'delete', 'nope'],
    },
    {
      name: 'remembering an unknown thread',
      op: 'chat.remember',
      input: { threadId: 'nope' },
      cli: ['chat', 'remember', 'nope'],
    },
  ];
}

export function workspaceCases(_w: ParityWorld): Case[] {
  return [
    // The engine of this test is opened on one model folder, the processes look in every usual one:
    // the reason the model is off names different folders.
    { name: 'the status', op: 'status.get', input: {}, cli: ['status'], fresh: ['model'] },
    { name: 'status takes no input', op: 'status.get', input: { verbose: true }, cli: [] },
    // The app's own: the command line is a one-shot process with no windows and no folders to watch.
    { name: 'the app', op: 'app.info', input: {}, cli: [], fresh: ['version'] },
    { name: 'no watched folders', op: 'watch.list', input: {}, cli: [] },
    {
      name: 'watching a folder that is not there',
      op: 'watch.add',
      input: { path: '/nonexistent/folder' },
      cli: [],
    },
  ];
}
