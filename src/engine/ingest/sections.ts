/** Turns heading-delimited sections (structured path) or whole texts (flat path) into keyed pieces. */
import { type Range, splitRange, trimRange } from './split.ts';

/** A heading-delimited part of a text; `path` is null for the preamble before the first heading. */
export type Section = { path: string[] | null; start: number; end: number };

export type Piece = Range & { key: string; label: string };

const PREAMBLE_KEY = '(preamble)';

/** Hands out keys that are unique within one file, deterministically (same input, same keys). */
function makeKeyRegistry(): (key: string) => string {
  const used = new Set<string>();
  return (key) => {
    let candidate = key;
    for (let n = 2; used.has(candidate); n++) candidate = `${key} (${n})`;
    used.add(candidate);
    return candidate;
  };
}

function pieceKey(base: string, index: number): string {
  return index === 0 ? base : `${base}#${index + 1}`;
}

/** Structured path: one piece per section, split past the size limit with the breadcrumb kept. */
export function structuredPieces(text: string, sections: Section[], prefix: string): Piece[] {
  const unique = makeKeyRegistry();
  const out: Piece[] = [];
  for (const section of sections) {
    const range = trimRange(text, section.start, section.end);
    if (!range) continue;
    const base = unique(section.path ? section.path.join(' > ') : PREAMBLE_KEY);
    // A title that is the document's own top heading is not said twice ("Go > Go > Context").
    const path = section.path?.[0] === prefix ? section.path.slice(1) : section.path;
    const label = path && path.length > 0 ? [prefix, ...path].join(' > ') : prefix;
    splitRange(text, range).forEach((r, i) => {
      out.push({ ...r, key: pieceKey(base, i), label });
    });
  }
  return out;
}

/** Flat path: the whole range packed into windows; keys are ordinals `<keyBase>#1`, `#2`… */
export function flatPieces(text: string, keyBase: string, label: string): Piece[] {
  const range = trimRange(text, 0, text.length);
  if (!range) return [];
  return splitRange(text, range).map((r, i) => ({ ...r, key: `${keyBase}#${i + 1}`, label }));
}
