/**
 * The facts a chat turn may cite (docs/FACTS.md [K15]). The entities the question names are found
 * by their normalised name, the way mentions and facts find a face ([K1], graph.ts
 * `normaliseName`): every run of up to six words of the question is looked up as an entity's
 * canonical name, in the asker's scopes only, so a face the asker cannot see is never read. Each
 * one's current facts ([K5]: retired ones are never given) become numbered memories after the
 * passages, "<entity>: <statement> (valid <date>)", whose citation is the source the fact cites
 * first, with the range of its text that says it.
 */
import type { FactMemory } from '#shared/api/types.ts';
import { type Db, stmt } from '../db/driver.ts';
import { entityFacts, type Fact } from '../knowledge/facts.ts';
import { normaliseName } from '../knowledge/graph.ts';
import type { Injected } from './chat.ts';

/** Longest entity name looked for, in words. */
const NAME_WORDS_MAX = 6;
/** Shorter names are not looked for, as in the deterministic audit (src/engine/audit/deterministic.ts). */
const NAME_CHARS_MIN = 3;
/** The question is read this far, as the read injection reads it (src/engine/search/injection.ts). */
const QUESTION_CHARS_MAX = 2000;
/** At most this many facts a turn, shared in turn among the entities the question names. */
const FACT_MEMORIES_MAX = 8;

type Face = { id: string; label: string; canonical_value: string };

/** The word runs of the question that could be an entity's name, each with where it starts. */
function candidateNames(question: string): Map<string, number> {
  const words = normaliseName(question.slice(0, QUESTION_CHARS_MAX), 'person').split(' ').filter(Boolean);
  const names = new Map<string, number>();
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= NAME_WORDS_MAX && i + n <= words.length; n++) {
      const name = words.slice(i, i + n).join(' ');
      if (name.length >= NAME_CHARS_MIN && !names.has(name)) names.set(name, i);
    }
  }
  return names;
}

/** The entity faces the question names, in the asker's scopes: first named first, longer names first. */
export function facesNamedIn(db: Db, scopes: readonly string[], question: string): Face[] {
  const names = candidateNames(question);
  if (names.size === 0 || scopes.length === 0) return [];
  const rows = stmt(
    db,
    `SELECT id, label, canonical_value FROM items
     WHERE storage_kind = 'entity' AND retired_at IS NULL
       AND scope IN (SELECT value FROM json_each(?)) AND canonical_value IN (SELECT value FROM json_each(?))
     ORDER BY rowid`,
  ).all(JSON.stringify(scopes), JSON.stringify([...names.keys()])) as Face[];
  const at = (f: Face) => names.get(f.canonical_value) ?? 0;
  return rows.sort((a, b) => at(a) - at(b) || b.canonical_value.length - a.canonical_value.length);
}

/** "2026-03-10" for a date or a timestamp; the text itself when it is neither. */
function dayOf(validAt: string): string {
  return /^\d{4}-\d{2}-\d{2}/.test(validAt) ? validAt.slice(0, 10) : validAt;
}

function factItem(face: Face, fact: Fact): Injected['items'][number] | null {
  const first = fact.citations[0];
  if (!first) return null;
  const memory: FactMemory = {
    id: fact.id,
    entityId: face.id,
    entity: face.label,
    statement: fact.statement,
    validAt: fact.validAt,
    source: first.item.id,
    sourceLabel: first.item.label,
    span: first.span,
  };
  return {
    id: fact.id,
    label: face.label,
    storageKind: 'entity',
    kind: 'fact',
    score: null,
    body: `${face.label}: ${fact.statement} (valid ${dayOf(fact.validAt)})`,
    citation: first.citation,
    fact: memory,
  };
}

/**
 * The current facts of the entities the question names, as memories to number after the passages:
 * taken in turn from each entity (the first named first) up to FACT_MEMORIES_MAX.
 */
export function factMemories(db: Db, scopes: readonly string[], question: string): Injected['items'] {
  const lists = facesNamedIn(db, scopes, question)
    .map((face) =>
      entityFacts(db, scopes, face.id)
        .filter((f) => f.status === 'current')
        .map((f) => factItem(face, f))
        .filter((item) => item !== null),
    )
    .filter((list) => list.length > 0);
  const out: Injected['items'] = [];
  for (let round = 0; out.length < FACT_MEMORIES_MAX; round++) {
    const taken = lists.map((list) => list[round]).filter((item) => item !== undefined);
    if (taken.length === 0) break;
    out.push(...taken.slice(0, FACT_MEMORIES_MAX - out.length));
  }
  return out;
}
