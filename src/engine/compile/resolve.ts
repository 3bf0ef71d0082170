/**
 * Resolve, the second step of the compile pass (docs/FACTS.md [K10]): for each extracted entity,
 * the existing entity faces it may be, by normalised name or alias, trigram similarity of names
 * and full text. Only faces in `org` or in the source's own scope are looked at: the source's
 * readers can read those, so a name from any other scope never reaches a prompt or a card. The
 * scope filter is in each query, before any ranking. An exact normalised name (or alias) of the
 * same kind in scope resolves without asking the model.
 */
import { type Db, stmt } from '../db/driver.ts';
import { closeNames, entityKind, nameSimilarity, trigrams } from '../knowledge/entities.ts';
import { type EntityKind, entityAliases, normaliseName } from '../knowledge/graph.ts';
import type { ItemRow } from '../read/items.ts';
import { ftsQuery, queryTerms } from '../search/keyword.ts';
import type { ExtractedEntity } from './extract.ts';

/** At most this many candidates per name reach the judge. */
const MAX_CANDIDATES = 5;
/** Below this trigram similarity a name is no candidate (unless full text finds it). */
const CANDIDATE_SIMILARITY = 0.4;
/**
 * "Very close" ([K10]): trigram similarity (Dice) of normalised names at least this, or names of 4+
 * letters that differ by one letter (two from 8 letters): the same rule as the entity list's
 * Possible duplicates. The judge answering "new" next to such a candidate makes a card.
 */
export const CLOSE_SIMILARITY = 0.72;

type FaceRow = Pick<
  ItemRow,
  'id' | 'label' | 'body' | 'kind' | 'scope' | 'canonical_type' | 'canonical_value'
>;

export type Candidate = {
  id: string;
  label: string;
  /** Every name sources used for it (its aliases), first seen first. */
  names: string[];
  kind: EntityKind;
  scope: string;
  /** 0..1: the best trigram similarity of the name to one of its names. */
  score: number;
  close: boolean;
};

export type Resolved = { entity: ExtractedEntity; exact: Candidate | null; candidates: Candidate[] };

/** Trigram similarity of two normalised names, as the entity list's Possible duplicates measure it. */
export const similarity = nameSimilarity;

/** Close enough to ask rather than guess: the entity list's Possible duplicates rule (closeNames). */
export function isClose(a: string, b: string, score: number): boolean {
  return score >= CLOSE_SIMILARITY || closeNames(a, b) !== null;
}

type Face = { row: FaceRow; kind: EntityKind; names: string[]; normalised: string[] };

/** Every live entity face in the readable scopes, with its normalised names. */
function readableFaces(db: Db, scopes: readonly string[]): Face[] {
  const rows = stmt(
    db,
    `SELECT id, label, body, kind, scope, canonical_type, canonical_value FROM items
     WHERE storage_kind = 'entity' AND retired_at IS NULL AND scope IN (SELECT value FROM json_each(?))
     ORDER BY rowid`,
  ).all(JSON.stringify(scopes)) as FaceRow[];
  return rows.map((row) => {
    const kind = entityKind(row.canonical_type ?? row.kind ?? 'other');
    const names = entityAliases(row);
    const normalised = [
      ...new Set([row.canonical_value ?? '', ...names.map((n) => normaliseName(n, kind))]),
    ].filter(Boolean);
    return { row, kind, names, normalised };
  });
}

/** Faces whose label or aliases hold the name's words (full text), within the readable scopes. */
function textMatches(db: Db, scopes: readonly string[], name: string): Set<string> {
  const terms = queryTerms(name);
  if (terms.length === 0) return new Set();
  const rows = stmt(
    db,
    `SELECT i.id FROM items_fts JOIN items i ON i.rowid = items_fts.rowid
     WHERE items_fts MATCH ? AND i.storage_kind = 'entity' AND i.retired_at IS NULL
       AND i.scope IN (SELECT value FROM json_each(?))
     ORDER BY bm25(items_fts) LIMIT 20`,
  ).all(ftsQuery(terms), JSON.stringify(scopes)) as { id: string }[];
  return new Set(rows.map((r) => r.id));
}

function toCandidate(face: Face, normalised: string): Candidate {
  let score = 0;
  let close = false;
  for (const n of face.normalised) {
    const s = similarity(normalised, n);
    if (s > score) score = s;
    close ||= isClose(normalised, n, s);
  }
  return {
    id: face.row.id,
    label: face.row.label,
    names: face.names,
    kind: face.kind,
    scope: face.row.scope,
    score: Math.round(score * 1000) / 1000,
    close,
  };
}

/**
 * The candidates of each extracted entity among the faces `scopes` can read ([K10]). `scope` is the
 * source's own: an exact match there wins over one in org (the claims go to that face, [K1]).
 */
export function resolveEntities(
  db: Db,
  scopes: readonly string[],
  scope: string,
  entities: readonly ExtractedEntity[],
): Resolved[] {
  if (entities.length === 0) return [];
  const faces = readableFaces(db, scopes);
  const index = new Map<string, Set<number>>();
  faces.forEach((f, i) => {
    for (const n of f.normalised)
      for (const t of trigrams(n)) {
        const set = index.get(t) ?? new Set<number>();
        set.add(i);
        index.set(t, set);
      }
  });
  return entities.map((entity) => {
    const exact = faces
      .filter((f) => f.kind === entity.kind && f.normalised.includes(entity.normalised))
      .sort((a, b) => Number(b.row.scope === scope) - Number(a.row.scope === scope))[0];
    if (exact) return { entity, exact: toCandidate(exact, entity.normalised), candidates: [] };
    const near = new Set<number>();
    for (const t of trigrams(entity.normalised)) for (const i of index.get(t) ?? []) near.add(i);
    const text = textMatches(db, scopes, entity.name);
    faces.forEach((f, i) => {
      if (text.has(f.row.id)) near.add(i);
    });
    const candidates = [...near]
      .map((i) => ({ face: faces[i] as Face, c: toCandidate(faces[i] as Face, entity.normalised) }))
      .filter(({ face, c }) => c.score >= CANDIDATE_SIMILARITY || c.close || text.has(face.row.id))
      .map(({ c }) => c)
      .sort((a, b) => b.score - a.score || Number(b.close) - Number(a.close) || (a.id < b.id ? -1 : 1))
      .slice(0, MAX_CANDIDATES);
    return { entity, exact: null, candidates };
  });
}
