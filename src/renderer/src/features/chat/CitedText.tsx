import type { InjectedMemory } from '#shared/api/types.ts';
import { type OpenCitation, openCited, whereOf } from './cited.ts';
import './turns.css';

export type CitedTextProps = { text: string; memories: InjectedMemory[]; onOpen: OpenCitation };

/** Splits an answer on its [n] citations; each [n] that names a memory opens that memory's cited range. */
function splitCitations(text: string, count: number): { at: number; part: string | number }[] {
  const out: { at: number; part: string | number }[] = [];
  let last = 0;
  for (const m of text.matchAll(/\[(\d{1,2})\]/g)) {
    const n = Number(m[1]);
    if (n < 1 || n > count) continue;
    if (m.index > last) out.push({ at: last, part: text.slice(last, m.index) });
    out.push({ at: m.index, part: n });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ at: last, part: text.slice(last) });
  return out;
}

/** A model's answer as text, its inline citations as buttons. Never rendered as HTML. */
export function CitedText({ text, memories, onOpen }: CitedTextProps) {
  const parts = splitCitations(text, memories.length);
  return (
    <p className="turn__text">
      {parts.map(({ at, part }) => {
        if (typeof part === 'string') return <span key={`t${at}`}>{part}</span>;
        const m = memories[part - 1];
        if (!m) return null;
        const where = whereOf(m);
        return (
          <button
            key={`c${at}`}
            type="button"
            className="inline-citation"
            onClick={() => openCited(m, m.id, onOpen)}
            aria-label={`Open citation ${part}: ${where}`}
            title={where}
          >
            {part}
          </button>
        );
      })}
    </p>
  );
}
