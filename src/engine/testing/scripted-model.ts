/**
 * A scripted OpenAI-compatible HTTP server for tests (node:http, no network): deterministic
 * replies chosen by a script, streamed as server-sent events when asked, tool calls included,
 * and failures on demand (an HTTP error, a connection that never answers, an answer held back).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ChatRequest = {
  model: string;
  stream?: boolean;
  messages: { role: string; content?: string | null; tool_calls?: unknown[]; tool_call_id?: string }[];
  tools?: { function: { name: string } }[];
};

/** What the API's `usage` says a reply cost (OpenAI's field names), when a script gives it. */
export type ScriptedUsage = {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
};

type ImmediateReply =
  | { content: string; usage?: ScriptedUsage }
  | { toolCalls: { name: string; arguments: unknown }[]; content?: string }
  | { status: number; error: string }
  | { hang: true };

/** `after`: the reply is sent once the promise settles (a model that is slow until the test says so). */
export type ScriptedReply = ImmediateReply | { after: Promise<unknown>; reply: ImmediateReply };

export type Script = (req: ChatRequest, index: number) => ScriptedReply;

export type ScriptedModel = {
  /** The base URL to configure (ends in /v1). */
  url: string;
  requests: ChatRequest[];
  close(): Promise<void>;
};

/** What a request is: the writer, the audit, a chat answer, a connection test. */
export function roleOf(req: ChatRequest): 'writer' | 'audit' | 'chat' | 'other' {
  const system = String(req.messages.find((m) => m.role === 'system')?.content ?? '');
  if (system.includes('write-back writer')) return 'writer';
  if (system.includes('audit pass')) return 'audit';
  if (system.includes('numbered')) return 'chat';
  return 'other';
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

let callSeq = 0;

function completion(
  model: string,
  reply: { content?: string; toolCalls?: { name: string; arguments: unknown }[]; usage?: ScriptedUsage },
) {
  const toolCalls = reply.toolCalls?.map((c) => ({
    id: `call_${++callSeq}`,
    type: 'function',
    function: {
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
    },
  }));
  return {
    id: `chatcmpl-${callSeq}`,
    object: 'chat.completion',
    created: 1,
    model,
    choices: [
      {
        index: 0,
        finish_reason: toolCalls?.length ? 'tool_calls' : 'stop',
        message: {
          role: 'assistant',
          content: reply.content ?? null,
          ...(toolCalls?.length ? { tool_calls: toolCalls } : {}),
        },
      },
    ],
    ...(reply.usage
      ? {
          usage: {
            ...reply.usage,
            total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens,
          },
        }
      : {}),
  };
}

async function stream(res: ServerResponse, model: string, content: string, delayMs: number): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  const send = (delta: Record<string, unknown>, finish: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({ id: 'chatcmpl-s', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  send({ role: 'assistant', content: '' });
  for (let i = 0; i < content.length; i += 6) {
    send({ content: content.slice(i, i + 6) });
    await new Promise((r) => setTimeout(r, delayMs));
  }
  send({}, 'stop');
  res.write('data: [DONE]\n\n');
  res.end();
}

/** `chunkDelayMs`: the pause between streamed pieces (slow it down to watch an answer being written). */
export async function startScriptedModel(
  script: Script,
  options: { chunkDelayMs?: number } = {},
): Promise<ScriptedModel> {
  const requests: ChatRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '';
      if (req.method === 'GET' && url.endsWith('/models')) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            data: [{ id: 'scripted', object: 'model', created: 1, owned_by: 'test' }],
          }),
        );
        return;
      }
      if (req.method !== 'POST' || !url.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(await readBody(req)) as ChatRequest;
      requests.push(body);
      const scripted = script(body, requests.length - 1);
      if ('after' in scripted) await scripted.after.catch(() => undefined);
      const reply = 'after' in scripted ? scripted.reply : scripted;
      if ('hang' in reply) {
        hanging.add(res);
        return;
      }
      if ('status' in reply) {
        res.writeHead(reply.status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { message: reply.error, type: 'server_error' } }));
        return;
      }
      if (body.stream && 'content' in reply && !('toolCalls' in reply)) {
        await stream(res, body.model, reply.content, options.chunkDelayMs ?? 5);
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(completion(body.model, reply)));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: async () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Tool calls proposing each item in turn, then a final answer: a writer script. */
export function writerScript(
  proposals: readonly Record<string, unknown>[],
  options: { perTurn?: number } = {},
): Script {
  const perTurn = options.perTurn ?? proposals.length;
  return (req) => {
    if (roleOf(req) !== 'writer') return { content: 'ok' };
    const done = req.messages.filter((m) => m.role === 'tool').length;
    const next = proposals.slice(done, done + perTurn);
    if (next.length === 0) return { content: 'Done.' };
    return { toolCalls: next.map((p) => ({ name: 'propose', arguments: p })) };
  };
}
