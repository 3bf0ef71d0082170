/**
 * The one way the engine talks to a chat model: the official `openai` client against any
 * OpenAI-compatible endpoint. Three uses: a streamed answer (chat), a tool loop with a step budget
 * (write-back, audit), and a connection test (Settings, `brain config test`).
 *
 * Tool arguments come from a model: they are parsed with zod and a bad call is answered with an
 * error message the model can correct, never thrown. Text that tools return is data, never
 * instructions (the system prompts say so). A tool returning brain text fences it with the loop's
 * frame, whose rule the system prompt carries (framing.ts, docs/SECURITY.md [F1]); the loop fences
 * the message of a tool that failed, since engine errors may quote stored text (a label, an id).
 */
import OpenAI from 'openai';
import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions/completions';
import { z } from 'zod';
import type { Frame } from '../read/framing.ts';
import type { ModelAccess } from './config.ts';

const MODEL_TIMEOUT_MS = 120_000;

function openClient(access: ModelAccess, timeoutMs = MODEL_TIMEOUT_MS): OpenAI {
  return new OpenAI({
    baseURL: access.baseUrl,
    // Local servers (Ollama, llama.cpp) need no key; the client insists on one.
    apiKey: access.key ?? 'no-key',
    timeout: timeoutMs,
    maxRetries: 0,
  });
}

export type Message = ChatCompletionMessageParam;

/** Streams an answer; `onDelta` gets each piece of text as it arrives. Returns the whole text. */
export async function streamAnswer(
  access: ModelAccess,
  messages: Message[],
  onDelta: (text: string) => void,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<string> {
  const client = openClient(access, options.timeoutMs);
  const stream = await client.chat.completions.create(
    { model: access.model, messages, stream: true, temperature: 0.2 },
    { signal: options.signal },
  );
  let text = '';
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta?.content ?? '';
    if (delta) {
      text += delta;
      onDelta(delta);
    }
  }
  return text;
}

/**
 * One plain completion (no tools): the audit's planning turn, the compile pass's steps. `signal`
 * aborts the call (a host closing, a claim given back: docs/FACTS.md [K11]).
 */
export async function complete(
  access: ModelAccess,
  messages: Message[],
  timeoutMs?: number,
  signal?: AbortSignal,
): Promise<string> {
  return (await completeWithUsage(access, messages, { timeoutMs, signal })).text;
}

/** Tokens as the API's `usage` counts them. */
export type Usage = { input: number; output: number; cached: number };

/**
 * One plain, non-streamed completion with what it cost: the reply's text, the configured model it
 * was asked of (the price table's key) and the API's `usage` (prompt, completion and cached prompt
 * tokens; null when the server sent none). The synthesis of agent brains reads the usage
 * (docs/AGENTS.md [G4]); `signal` aborts the call.
 */
export async function completeWithUsage(
  access: ModelAccess,
  messages: Message[],
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<{ text: string; model: string; usage: Usage | null }> {
  options.signal?.throwIfAborted();
  const res = await openClient(access, options.timeoutMs).chat.completions.create(
    { model: access.model, messages, temperature: 0 },
    { signal: options.signal },
  );
  const u = res.usage;
  return {
    text: res.choices[0]?.message?.content ?? '',
    model: access.model,
    usage: u
      ? {
          input: u.prompt_tokens ?? 0,
          output: u.completion_tokens ?? 0,
          cached: u.prompt_tokens_details?.cached_tokens ?? 0,
        }
      : null,
  };
}

export type Tool<A extends z.ZodType = z.ZodType> = {
  name: string;
  description: string;
  args: A;
  /** What the model reads back, as it is: brain text in it must be fenced already. */
  run: (args: z.output<A>) => Promise<string> | string;
};

export function defineTool<A extends z.ZodType>(tool: Tool<A>): Tool {
  return tool as unknown as Tool;
}

export type LoopResult = { steps: number; turns: number; finished: boolean; lastText: string };

/**
 * Runs a tool loop: each tool call is one step; the loop ends when the model answers without a
 * tool call, or when the step budget is spent (the calls beyond it are not run).
 */
export async function runToolLoop(
  access: ModelAccess,
  input: {
    messages: Message[];
    tools: readonly Tool[];
    maxSteps: number;
    maxTurns?: number;
    timeoutMs?: number;
    /** The frame of the prompt's boundary: tool errors are fenced with it. */
    frame?: Frame;
    /** Aborts the loop's model calls (a background pass that gave its claim back). */
    signal?: AbortSignal;
  },
): Promise<LoopResult> {
  const client = openClient(access, input.timeoutMs);
  const messages = [...input.messages];
  const byName = new Map(input.tools.map((t) => [t.name, t]));
  const tools: ChatCompletionTool[] = input.tools.map((t) => ({
    type: 'function',
    function: {
      name: t.name,
      description: t.description,
      parameters: z.toJSONSchema(t.args) as Record<string, unknown>,
    },
  }));
  let steps = 0;
  let turns = 0;
  const maxTurns = input.maxTurns ?? input.maxSteps + 2;
  while (turns < maxTurns) {
    turns += 1;
    input.signal?.throwIfAborted();
    const res = await client.chat.completions.create(
      { model: access.model, messages, tools, temperature: 0 },
      { signal: input.signal },
    );
    const msg = res.choices[0]?.message;
    if (!msg) throw new Error('the model returned no message');
    const calls = (msg.tool_calls ?? []).filter((c) => c.type === 'function');
    if (calls.length === 0) return { steps, turns, finished: true, lastText: msg.content ?? '' };
    messages.push({ role: 'assistant', content: msg.content ?? null, tool_calls: calls });
    for (const call of calls) {
      if (steps >= input.maxSteps) {
        return { steps, turns, finished: false, lastText: msg.content ?? '' };
      }
      steps += 1;
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: await runCall(byName, call.function, input.frame),
      });
    }
  }
  return { steps, turns, finished: false, lastText: '' };
}

async function runCall(
  tools: Map<string, Tool>,
  fn: { name: string; arguments: string },
  frame?: Frame,
): Promise<string> {
  const tool = tools.get(fn.name);
  if (!tool) return `error: there is no tool ${fn.name}; use one of ${[...tools.keys()].join(', ')}`;
  let raw: unknown;
  try {
    raw = fn.arguments ? JSON.parse(fn.arguments) : {};
  } catch {
    return 'error: the arguments are not valid JSON';
  }
  const parsed = tool.args.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `error: ${issue?.path.join('.') || 'arguments'} ${issue?.message ?? 'invalid'}`;
  }
  try {
    return await tool.run(parsed.data);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return `error: ${frame ? frame.inline(message, { what: 'error' }) : message}`;
  }
}

export type ConnectionTest = { ok: boolean; message: string; models: string[] };

/** Lists the endpoint's models and asks the configured one for a single token. */
export async function testConnection(access: ModelAccess, timeoutMs = 15_000): Promise<ConnectionTest> {
  const client = openClient(access, timeoutMs);
  let models: string[] = [];
  try {
    const page = await client.models.list();
    models = page.data.map((m) => m.id);
  } catch {
    models = []; // some servers have no /models; the completion below decides
  }
  try {
    await client.chat.completions.create({
      model: access.model,
      messages: [{ role: 'user', content: 'Reply with OK.' }],
      max_tokens: 1,
    });
    return { ok: true, message: `Connected: ${access.model} at ${access.baseUrl} answers.`, models };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const hint =
      models.length && !models.includes(access.model)
        ? ` (the server offers: ${models.slice(0, 8).join(', ')})`
        : '';
    return {
      ok: false,
      message: `${access.baseUrl} did not answer with ${access.model}: ${why}${hint}`,
      models,
    };
  }
}
