/**
 * Brain text in MCP answers (docs/SECURITY.md [F1]). The read tools answer JSON an agent's model
 * reads as it is; the structured fields (ids, kinds, scopes, scores, citations) stay as they were,
 * and each piece of brain text in it (labels, bodies, mention text, link notes) becomes that text
 * fenced by markers carrying a boundary drawn for this one answer (framing.ts). The answer's
 * `framing` field, first in the JSON, names the boundary and says what the markers mean.
 */
import { createFrame, type Frame } from '#engine/read/framing.ts';
import { jsonText } from './tool-result.ts';

/** Keys whose string values are brain text wherever they occur in an answer. */
const BRAIN_TEXT_KEYS = new Set(['label', 'body', 'mention', 'note', 'quote']);
/** Subtrees kept as they are: citations are structured fields clients read (fileLabel, ranges). */
const STRUCTURED_KEYS = new Set(['citation']);

function walk(value: unknown, visit: (text: string, owner: Record<string, unknown>) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => walk(v, visit));
  if (typeof value !== 'object' || value === null) return value;
  const owner = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(owner)) {
    if (STRUCTURED_KEYS.has(key)) out[key] = v;
    else if (typeof v === 'string' && BRAIN_TEXT_KEYS.has(key)) out[key] = visit(v, owner);
    // Edge props hold what people and agents wrote (mention text, link notes, anything later added).
    else if (key === 'props' && typeof v === 'object' && v !== null && !Array.isArray(v))
      out[key] = Object.fromEntries(
        Object.entries(v).map(([k, p]) => [k, typeof p === 'string' ? visit(p, owner) : walk(p, visit)]),
      );
    else out[key] = walk(v, visit);
  }
  return out;
}

/** The brain text an answer holds, to draw a boundary none of it contains. */
function brainStrings(value: unknown): string[] {
  const found: string[] = [];
  walk(value, (text) => {
    found.push(text);
    return text;
  });
  return found;
}

/**
 * `value` as the JSON text of an answer: `framing` first, then the same fields with brain text
 * fenced. `frame` is given when part of the answer was fenced already (brain_context's rendered
 * memories): one answer, one boundary.
 */
export function framedJson(value: Record<string, unknown>, frame?: Frame): string {
  const f = frame ?? createFrame(brainStrings(value));
  const fenced = walk(value, (text, owner) =>
    f.inline(text, { id: typeof owner.id === 'string' ? owner.id : undefined }),
  ) as Record<string, unknown>;
  return jsonText({ framing: f.rule(), ...fenced });
}
