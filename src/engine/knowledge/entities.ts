/**
 * Entities as people browse them: the list with every alias and counts, and possible duplicates.
 *
 * - Everything is read through the caller's scopes: an entity, a mention or a SAME_AS edge counts
 *   only when the user can see it (an edge only when both ends are visible).
 * - Possible duplicates are entities of one kind whose normalised names are very close (trigram
 *   similarity or a small edit distance). They are offered to a person; nothing merges, and a pair
 *   already joined by SAME_AS is not offered again.
 */
import type { DuplicatePair, EntitySummary, ItemRef } from '#shared/api/types.ts';
import type { Db } from '../db/driver.ts';
import type { ItemRow } from '../read/items.ts';
import { type EntityKind, entityAliases, normaliseName } from './graph.ts';

type EntityRow = Pick<ItemRow, 'id' | 'label' | 'kind' | 'scope' | 'body' | 'storage_kind' | 'updated_at'>;

export function toRef(row: Pick<ItemRow, 'id' | 'label' | 'storage_kind' | 'kind' | 'scope'>): ItemRef {
  return { id: row.id, label: row.label, storageKind: row.storage_kind, kind: row.kind, scope: row.scope };
}

export function entityKind(kind: string): EntityKind {
  return kind === 'person' || kind === 'company' || kind === 'project' ? kind : 'other';
}

/** The normalised forms of every alias of an entity (legal suffixes dropped for organisations). */
function normalisedAliases(row: Pick<ItemRow, 'body' | 'label' | 'kind'>): string[] {
  const kind = entityKind(row.kind);
  return [...new Set(entityAliases(row).map((a) => normaliseName(a, kind)))].filter(Boolean);
}

/** Does `q` name this entity? Any alias, ignoring case, accents, punctuation and legal suffixes. */
function matchesAlias(row: EntityRow, q: string): boolean {
  const wanted = normaliseName(q, entityKind(row.kind));
  const loose = normaliseName(q, 'person');
  if (!wanted && !loose) return false;
  return entityAliases(row).some((alias) => {
    const n = normaliseName(alias, entityKind(row.kind));
    const l = normaliseName(alias, 'person');
    return n === wanted || n.includes(wanted) || l.includes(loose);
  });
}

const VISIBLE_EDGE = `e.retired_at IS NULL AND a.retired_at IS NULL AND b.retired_at IS NULL
  AND a.scope IN (SELECT value FROM json_each(@scopes)) AND b.scope IN (SELECT value FROM json_each(@scopes))`;

export function listEntities(
  db: Db,
  scopes: readonly string[],
  options: { q?: string; limit: number },
): EntitySummary[] {
  const scopeJson = JSON.stringify(scopes);
  const rows = db
    .prepare(
      `SELECT id, label, kind, scope, body, storage_kind, updated_at FROM items
       WHERE storage_kind = 'entity' AND retired_at IS NULL AND scope IN (SELECT value FROM json_each(?))
       ORDER BY label COLLATE NOCASE, id`,
    )
    .all(scopeJson) as EntityRow[];
  const q = options.q?.trim();
  const chosen = (q ? rows.filter((r) => matchesAlias(r, q)) : rows).slice(0, options.limit);
  if (chosen.length === 0) return [];
  const ids = JSON.stringify(chosen.map((r) => r.id));
  const mentionCounts = new Map(
    (
      db
        .prepare(
          `SELECT e.to_id AS id, COUNT(*) AS n, COUNT(DISTINCT e.from_id) AS sources FROM edges e
           JOIN items a ON a.id = e.from_id JOIN items b ON b.id = e.to_id
           WHERE e.type = 'MENTIONS' AND e.to_id IN (SELECT value FROM json_each(@ids)) AND ${VISIBLE_EDGE}
           GROUP BY e.to_id`,
        )
        .all({ ids, scopes: scopeJson }) as { id: string; n: number; sources: number }[]
    ).map((r) => [r.id, r]),
  );
  const sameAs = new Map<string, number>();
  const sameRows = db
    .prepare(
      `SELECT e.from_id, e.to_id FROM edges e JOIN items a ON a.id = e.from_id JOIN items b ON b.id = e.to_id
       WHERE e.type = 'SAME_AS' AND (e.from_id IN (SELECT value FROM json_each(@ids))
         OR e.to_id IN (SELECT value FROM json_each(@ids))) AND ${VISIBLE_EDGE}`,
    )
    .all({ ids, scopes: scopeJson }) as { from_id: string; to_id: string }[];
  for (const r of sameRows) {
    sameAs.set(r.from_id, (sameAs.get(r.from_id) ?? 0) + 1);
    sameAs.set(r.to_id, (sameAs.get(r.to_id) ?? 0) + 1);
  }
  return chosen.map((r) => ({
    ...toRef(r),
    aliases: entityAliases(r),
    mentions: mentionCounts.get(r.id)?.n ?? 0,
    sources: mentionCounts.get(r.id)?.sources ?? 0,
    sameAs: sameAs.get(r.id) ?? 0,
    updatedAt: r.updated_at,
  }));
}

// ---- similarity ----

export function trigrams(s: string): Set<string> {
  const padded = `  ${s} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return out;
}

/** Trigram similarity (Dice coefficient) of two normalised names, 0..1. */
export function nameSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const ta = trigrams(a);
  const tb = trigrams(b);
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return (2 * shared) / (ta.size + tb.size || 1);
}

/** Levenshtein distance, stopping early once it is over `max`. */
function editDistance(a: string, b: string, max = 3): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      cur.push(v);
      best = Math.min(best, v);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length] ?? max + 1;
}

/** Why two normalised names look like one thing, or null when they do not. */
export function closeNames(a: string, b: string): { similarity: number; reason: string } | null {
  if (a === b) return { similarity: 1, reason: `same name "${a}"` };
  const similarity = nameSimilarity(a, b);
  const shortest = Math.min(a.length, b.length);
  const distance = editDistance(a, b, 2);
  if (shortest >= 4 && distance <= (shortest >= 8 ? 2 : 1)) {
    return {
      similarity,
      reason: `"${a}" and "${b}" differ by ${distance} letter${distance === 1 ? '' : 's'}`,
    };
  }
  if (similarity >= 0.72) return { similarity, reason: `"${a}" and "${b}" share most letter groups` };
  return null;
}

// ---- possible duplicates ----

type Candidate = { row: EntityRow; names: string[] };

/** Trigrams common to more entities than this say nothing; they are skipped when pairing. */
const BUCKET_MAX = 200;

function candidatePairs(entities: Candidate[]): [number, number][] {
  const buckets = new Map<string, number[]>();
  entities.forEach((e, i) => {
    const grams = new Set<string>();
    for (const n of e.names) for (const g of trigrams(n)) grams.add(`${e.row.kind}\0${g}`);
    for (const g of grams) {
      const list = buckets.get(g) ?? [];
      list.push(i);
      buckets.set(g, list);
    }
  });
  const pairs = new Set<number>();
  const out: [number, number][] = [];
  for (const list of buckets.values()) {
    if (list.length < 2 || list.length > BUCKET_MAX) continue;
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const i = list[x] as number;
        const j = list[y] as number;
        const key = i * entities.length + j;
        if (pairs.has(key)) continue;
        pairs.add(key);
        out.push([i, j]);
      }
    }
  }
  return out;
}

function bestMatch(a: Candidate, b: Candidate): { similarity: number; reason: string } | null {
  let best: { similarity: number; reason: string } | null = null;
  for (const x of a.names) {
    for (const y of b.names) {
      const m = closeNames(x, y);
      if (m && (!best || m.similarity > best.similarity)) best = m;
    }
  }
  return best;
}

export function possibleDuplicates(
  db: Db,
  scopes: readonly string[],
  options: { id?: string; limit: number },
): DuplicatePair[] {
  const scopeJson = JSON.stringify(scopes);
  const rows = db
    .prepare(
      `SELECT id, label, kind, scope, body, storage_kind, updated_at FROM items
       WHERE storage_kind = 'entity' AND retired_at IS NULL AND scope IN (SELECT value FROM json_each(?))`,
    )
    .all(scopeJson) as EntityRow[];
  const entities: Candidate[] = rows.map((row) => ({ row, names: normalisedAliases(row) }));
  const linked = new Set(
    (
      db
        .prepare(
          `SELECT e.from_id, e.to_id FROM edges e JOIN items a ON a.id = e.from_id JOIN items b ON b.id = e.to_id
           WHERE e.type = 'SAME_AS' AND ${VISIBLE_EDGE}`,
        )
        .all({ scopes: scopeJson }) as { from_id: string; to_id: string }[]
    ).flatMap((e) => [`${e.from_id}|${e.to_id}`, `${e.to_id}|${e.from_id}`]),
  );
  const out: DuplicatePair[] = [];
  for (const [i, j] of candidatePairs(entities)) {
    const a = entities[i] as Candidate;
    const b = entities[j] as Candidate;
    if (options.id && a.row.id !== options.id && b.row.id !== options.id) continue;
    if (linked.has(`${a.row.id}|${b.row.id}`)) continue;
    const match = bestMatch(a, b);
    if (!match) continue;
    const [first, second] = a.row.label.localeCompare(b.row.label) <= 0 ? [a, b] : [b, a];
    out.push({
      a: { ...toRef(first.row), aliases: entityAliases(first.row) },
      b: { ...toRef(second.row), aliases: entityAliases(second.row) },
      ...match,
    });
  }
  out.sort((x, y) => y.similarity - x.similarity || x.a.label.localeCompare(y.a.label));
  return out.slice(0, options.limit);
}
