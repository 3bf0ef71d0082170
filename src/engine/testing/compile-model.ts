/**
 * The compile pass's requests as the scripted model (./scripted-model.ts) sees them, for tests of
 * src/engine/compile: which step a request is, the text it carries, the entities a judge request
 * asks about with their candidate ids, and a reply holding JSON.
 */
import type { ChatRequest } from './scripted-model.ts';

export type CompileStep = 'extract' | 'judge';

export function compileStep(req: ChatRequest): CompileStep | null {
  const system = String(req.messages.find((m) => m.role === 'system')?.content ?? '');
  if (system.includes('compile pass of Org Brain (extract)')) return 'extract';
  if (system.includes('compile pass of Org Brain (judge)')) return 'judge';
  return null;
}

/** Everything the request says, system prompt included, as one text. */
export function requestText(req: ChatRequest): string {
  return req.messages.map((m) => String(m.content ?? '')).join('\n');
}

export type Asked = { n: number; name: string; candidates: string[] };

/** The entities a judge request asks about, numbered as it numbers them, with their candidates' ids. */
export function judgeAsked(req: ChatRequest): Asked[] {
  const text = String(req.messages.find((m) => m.role === 'user')?.content ?? '');
  const out: Asked[] = [];
  for (const line of text.split('\n')) {
    const entity = /^(\d+)\. <<memory [0-9a-f]+ n=\d+ what=name>>(.*?)<<end memory/.exec(line);
    if (entity) out.push({ n: Number(entity[1]), name: entity[2] ?? '', candidates: [] });
    const candidate = /^\s+- (e_[0-9a-f]{20}) /.exec(line);
    if (candidate) out.at(-1)?.candidates.push(candidate[1] ?? '');
  }
  return out;
}

/** A reply whose content is `value` as JSON. */
export function jsonReply(value: unknown): { content: string } {
  return { content: JSON.stringify(value) };
}
