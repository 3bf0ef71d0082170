/** Replies of a scripted model playing the synthesis of agent brains (docs/AGENTS.md), for tests. */
import type { ChatRequest, ScriptedReply, ScriptedUsage } from './scripted-model.ts';

/** The observation ids a synthesis request listed, in its order. */
export function askedIds(req: ChatRequest): string[] {
  const text = String(req.messages.find((m) => m.role === 'user')?.content ?? '');
  return [...text.matchAll(/^\d+\. id (o_[0-9a-f]{20}),/gm)].map((m) => m[1] as string);
}

/** A brain citing every observation the request gave, one gotcha each. */
export function brainOf(req: ChatRequest, usage?: ScriptedUsage): ScriptedReply {
  const ids = askedIds(req);
  const brain = {
    summary: `from ${ids.length} observations`,
    sections: { gotchas: ids.map((id) => ({ text: `lesson ${id}`, observation_ids: [id] })) },
  };
  return { content: JSON.stringify(brain), usage };
}
