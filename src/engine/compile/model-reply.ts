/**
 * The compile pass's model replies (docs/FACTS.md [K9]): strict JSON, checked with zod. A reply
 * that is not one JSON object of the expected shape is a model failure, like an HTTP error or a
 * timeout: the pass stops and changes nothing.
 */
import type { z } from 'zod';
import { complete, type Message } from '../llm/client.ts';
import type { ModelAccess } from '../llm/config.ts';

export type CompileStep = 'extract' | 'judge';

/** The model failed at one step of the pass: it did not answer, or answered outside the shape. */
export class CompileModelError extends Error {
  readonly step: CompileStep;
  constructor(step: CompileStep, message: string) {
    super(`${step}: ${message}`);
    this.name = 'CompileModelError';
    this.step = step;
  }
}

/** The JSON object in a reply: the whole text, or the text inside one ```json fence. */
function jsonText(reply: string): string {
  const text = reply.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(text);
  return fenced ? (fenced[1] ?? '') : text;
}

export function parseReply<S extends z.ZodType>(step: CompileStep, reply: string, schema: S): z.output<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(jsonText(reply));
  } catch {
    throw new CompileModelError(
      step,
      `the model's reply is not JSON (${JSON.stringify(reply.slice(0, 80))}).`,
    );
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CompileModelError(
      step,
      `the model's reply does not fit: ${issue?.path.join('.') || 'reply'}: ${issue?.message ?? 'invalid'}.`,
    );
  }
  return parsed.data;
}

/** How a step calls the model: its timeout, and the signal that stops the pass ([K11]). */
export type StepOptions = { timeoutMs?: number; signal?: AbortSignal };

/**
 * One completion of a step; an HTTP error or a timeout is that step's failure. A call stopped by
 * `signal` throws the signal's reason as it is: the pass was stopped, the model did not fail.
 */
export async function ask(
  step: CompileStep,
  access: ModelAccess,
  messages: Message[],
  options: StepOptions = {},
): Promise<string> {
  try {
    return await complete(access, messages, options.timeoutMs, options.signal);
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new CompileModelError(step, err instanceof Error ? err.message : String(err));
  }
}
