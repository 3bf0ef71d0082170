/**
 * Read injection ([I1] in docs/PRODUCT.md): what the brain adds to a chat turn or an agent turn. One
 * function, used by the chat and by the MCP tool `brain_context`.
 *
 *  1. Search once with the latest message (cut to QUERY_MAX_CHARS), k = 8, in the user's scopes.
 *  2. Anchors (at most 4 item ids: the open item, pinned items, the run's linked items) are read by
 *     id, scope-checked like any read, and always come first. Unknown or invisible ids are skipped
 *     and reported as `not-found` (the same answer for both, so nothing leaks).
 *  3. The absolute floor. Reciprocal rank fusion gives an item 1/(60 + rank) per list it is in. An
 *     item is in at most two lists (its stream's keyword list and its stream's vector list), so a
 *     first place in one list alone scores 1/61 ≈ 0.0164 and 0.02 means "both kinds of list
 *     voted for it". When the vector lists did not run (no model: `semantic: false`) only one list
 *     can vote, so the floor is scaled to the lists that ran:
 *
 *         floor = 0.02 × (kinds of list that ran ÷ 2)   → 0.02 hybrid, 0.01 keyword-only
 *
 *     Keyword-only injection therefore still works (a first place scores 0.0164 ≥ 0.01), and a
 *     message that matches nothing still injects nothing (no list has it, so no hit at all; small
 *     talk is all stop words and matches no keyword; in hybrid mode the vector lists always return
 *     neighbours, but a vector vote alone, ≤ 0.0164, stays under 0.02).
 *     The floor is checked on the best hit's rank-fusion vote BEFORE the freshness weight: freshness
 *     orders results, it does not decide whether they are relevant (otherwise nothing older than
 *     about two months could ever be injected). If the best vote is under the floor, no hit is
 *     injected (anchors still are).
 *  4. The relative floor: hits whose final (freshness-weighted) score is under 60 % of the top
 *     hit's are dropped.
 *  5. At most 8 items after the merge, anchors first, and a token budget: 4 characters ≈ 1 token,
 *     the rendered text aims at INJECTION_TOKEN_TARGET and never exceeds INJECTION_TOKEN_MAX; long
 *     bodies are trimmed (water-filling: short bodies stay whole, long ones share what is left).
 *     Each memory is fenced by a boundary drawn for this turn (injection-render.ts, framing.ts,
 *     docs/SECURITY.md [F1]), so a memory's text cannot pass for the framing or another memory.
 *  6. Fail-open: a search that throws gives no hits, reason `search failed: …; no memories this
 *     turn`, and the turn goes on. Every turn is logged to telemetry (`inject`): query, scores,
 *     anchors, what was injected or why nothing was.
 */
import { SEARCH_K_MAX_AGENT } from '#shared/constants.ts';
import { toTransferable } from '#shared/errors.ts';
import type { AlsoPassage, Citation, SearchHit, SearchResult, StorageKind } from '#shared/types.ts';
import { type BrainBlock, blockTexts } from '../agents/mount.ts';
import type { Db } from '../db/driver.ts';
import { createFrame } from '../read/framing.ts';
import { getRow, type ItemRow } from '../read/items.ts';
import { canSee, visibleScopes } from '../scope.ts';
import { type InjectEventData, logEvent, type Surface } from '../telemetry.ts';
import { brainTexts, renderWithinBudget } from './injection-render.ts';
import { freshness } from './rrf.ts';
import { citationOf } from './search.ts';

const INJECTION_ABSOLUTE_FLOOR = 0.02;
const INJECTION_RELATIVE_FLOOR = 0.6;
export const INJECTION_MAX_ITEMS = 8;
const INJECTION_MAX_ANCHORS = 4;
const QUERY_MAX_CHARS = 2000;

export {
  INJECTION_TOKEN_MAX,
  trimBody,
  waterFill,
} from './injection-render.ts';

/** What injection needs from an engine (an `Engine` satisfies it). */
export type InjectionDeps = {
  db: Db;
  user: string;
  search(query: string, options: { k?: number; maxK?: number }): Promise<SearchResult>;
};

export type InjectionInput = {
  message: string;
  anchors?: readonly string[];
  /** Defaults to deps.user. Anchors and hits are checked against this user's scopes too. */
  user?: string;
  surface: Surface;
  /** An agent's brain, on its run's first answer (docs/AGENTS.md [G7]): first, within the same cap. */
  brain?: BrainBlock;
};

type InjectedItem = {
  id: string;
  label: string;
  storageKind: StorageKind;
  kind: string;
  scope: string;
  /** The final search score; null for an anchor that search did not return. */
  score: number | null;
  isAnchor: boolean;
  body: string;
  citation: Citation | null;
  /** Other passages of the same source that matched ([R6] in docs/RETRIEVAL.md). */
  more?: number;
  also?: AlsoPassage[];
};

type AnchorStatus = 'included' | 'not-found' | 'over-limit' | 'duplicate';

export type Injection = {
  items: InjectedItem[];
  /** The rendered block to put in front of the model ('' when nothing is injected). */
  text: string;
  /** The boundary token fencing each memory in `text`; anything else shown with it reuses it. */
  boundary: string;
  tokens: number;
  reason: string;
  query: string;
  semantic: boolean;
  floor: number;
  scores: { id: string; score: number; vote: number }[];
  anchors: { id: string; status: AnchorStatus }[];
  /** How many of the agent brain's entries the text holds, of how many; null without a brain. */
  brain: { shown: number; total: number } | null;
};

/** The absolute floor for the lists that ran: 0.02 when keyword and vector lists voted, 0.01 otherwise. */
export function absoluteFloor(semantic: boolean): number {
  const kindsThatRan = semantic ? 2 : 1;
  return (INJECTION_ABSOLUTE_FLOOR * kindsThatRan) / 2;
}

export async function inject(deps: InjectionDeps, input: InjectionInput): Promise<Injection> {
  const started = performance.now();
  const user = input.user ?? deps.user;
  const query = input.message.trim().slice(0, QUERY_MAX_CHARS);
  const scopes = visibleScopes(deps.db, user);
  const anchors = readAnchors(deps.db, scopes, input.anchors ?? []);

  let result: SearchResult = { semantic: false, hits: [] };
  let failure: string | null = null;
  if (query) {
    try {
      result = await deps.search(query, { k: INJECTION_MAX_ITEMS, maxK: SEARCH_K_MAX_AGENT });
    } catch (err) {
      failure = `search failed: ${toTransferable(err).message}; no memories this turn`;
    }
  }
  const floor = absoluteFloor(result.semantic);
  const hits = result.hits.filter((h) => canSee(scopes, h.scope));
  const votes = rawVotes(deps.db, hits);
  const scores = hits.map((h) => ({ id: h.id, score: h.score, vote: votes.get(h.id) ?? h.score }));
  const chosen = chooseHits(hits, scores, floor);

  const anchorIds = new Set(anchors.items.map((a) => a.id));
  const byId = new Map(hits.map((h) => [h.id, h]));
  const items: InjectedItem[] = [
    ...anchors.items.map((a) => ({ ...a, score: byId.get(a.id)?.score ?? null })),
    ...chosen.kept.filter((h) => !anchorIds.has(h.id)).map(hitItem),
  ].slice(0, INJECTION_MAX_ITEMS);
  const frame = createFrame([...brainTexts(items), ...(input.brain ? blockTexts(input.brain) : [])]);
  const rendered = renderWithinBudget(items, frame, input.brain);
  const brainNote = rendered.brain
    ? `; agent brain: ${rendered.brain.shown} of ${rendered.brain.total} entries`
    : '';
  const reason =
    (failure ?? explain(chosen, floor, result.semantic, hits.length, rendered.items, anchors.items)) +
    brainNote;
  const injection: Injection = {
    items: rendered.items,
    text: rendered.text,
    boundary: frame.token,
    tokens: rendered.tokens,
    reason,
    query,
    semantic: result.semantic,
    floor,
    scores,
    anchors: anchors.statuses,
    brain: rendered.brain,
  };
  logEvent(deps.db, input.surface, user, 'inject', {
    query,
    semantic: result.semantic,
    floor,
    scores: scores.map((s) => ({ id: s.id, score: round(s.score), vote: round(s.vote) })),
    anchors: anchors.statuses,
    injected: rendered.items.map((i) => ({
      id: i.id,
      score: i.score === null ? null : round(i.score),
      isAnchor: i.isAnchor,
    })),
    tokens: rendered.tokens,
    reason,
    ms: Math.round(performance.now() - started),
  } satisfies InjectEventData);
  return injection;
}

type Chosen = { kept: SearchHit[]; best: { vote: number; score: number } | null; droppedRelative: number };

function chooseHits(hits: readonly SearchHit[], scores: Injection['scores'], floor: number): Chosen {
  const top = scores[0];
  if (!top) return { kept: [], best: null, droppedRelative: 0 };
  const best = { vote: Math.max(...scores.map((s) => s.vote)), score: top.score };
  if (best.vote < floor) return { kept: [], best, droppedRelative: 0 };
  const kept = hits.filter((h) => h.score >= INJECTION_RELATIVE_FLOOR * top.score);
  return { kept, best, droppedRelative: hits.length - kept.length };
}

function explain(
  chosen: Chosen,
  floor: number,
  semantic: boolean,
  hitCount: number,
  injected: readonly InjectedItem[],
  anchors: readonly InjectedItem[],
): string {
  const lists = semantic ? 'keyword and vector lists ran' : 'keyword lists only: semantic search off';
  const anchorNote = anchors.length
    ? `; ${anchors.length} anchor${anchors.length === 1 ? '' : 's'} included`
    : '';
  if (!chosen.best) return `nothing found for this message${anchorNote}`;
  if (chosen.kept.length === 0) {
    return (
      `best hit's vote ${chosen.best.vote.toFixed(4)} is below the floor ${floor.toFixed(4)} ` +
      `(${lists}); no search hit injected${anchorNote}`
    );
  }
  const fromSearch = injected.filter((i) => !i.isAnchor).length;
  const parts = [
    `injected ${fromSearch} of ${hitCount} hits (best vote ${chosen.best.vote.toFixed(4)} ≥ floor ${floor.toFixed(4)}, ${lists})`,
  ];
  if (chosen.droppedRelative) parts.push(`${chosen.droppedRelative} under 60 % of the top score dropped`);
  return parts.join('; ') + anchorNote;
}

/** The rank-fusion vote of each hit: its final score with the freshness weight divided back out. */
function rawVotes(db: Db, hits: readonly SearchHit[]): Map<string, number> {
  if (hits.length === 0) return new Map();
  const rows = db
    .prepare('SELECT id, occurred_at, origin_at FROM items WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(hits.map((h) => h.id))) as {
    id: string;
    occurred_at: string | null;
    origin_at: string;
  }[];
  const now = Date.now();
  const weight = new Map(rows.map((r) => [r.id, freshness(r.occurred_at ?? r.origin_at, now)]));
  return new Map(hits.map((h) => [h.id, h.score / (weight.get(h.id) ?? 1)]));
}

function readAnchors(
  db: Db,
  scopes: readonly string[],
  ids: readonly string[],
): { items: InjectedItem[]; statuses: Injection['anchors'] } {
  const items: InjectedItem[] = [];
  const statuses: Injection['anchors'] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) {
      statuses.push({ id, status: 'duplicate' });
      continue;
    }
    seen.add(id);
    if (seen.size > INJECTION_MAX_ANCHORS) {
      statuses.push({ id, status: 'over-limit' });
      continue;
    }
    const row = safeRow(db, id);
    // Invisible and missing look the same: an anchor never reveals that a hidden item exists.
    if (!row || !canSee(scopes, row.scope)) {
      statuses.push({ id, status: 'not-found' });
      continue;
    }
    const file = row.file_id ? safeRow(db, row.file_id) : undefined;
    items.push({
      id: row.id,
      label: row.label,
      storageKind: row.storage_kind,
      kind: row.kind,
      scope: row.scope,
      score: null,
      isAnchor: true,
      body: row.body || row.summary || '',
      citation: citationOf(row, file && canSee(scopes, file.scope) ? file : undefined),
    });
    statuses.push({ id, status: 'included' });
  }
  return { items, statuses };
}

function safeRow(db: Db, id: string): ItemRow | undefined {
  try {
    return getRow(db, id);
  } catch {
    return undefined; // memory never breaks a turn: a failing read is an anchor not found
  }
}

function hitItem(hit: SearchHit): InjectedItem {
  return {
    id: hit.id,
    label: hit.label,
    storageKind: hit.storageKind,
    kind: hit.kind,
    scope: hit.scope,
    score: hit.score,
    isAnchor: false,
    body: hit.body,
    citation: hit.citation,
    ...(hit.more ? { more: hit.more, also: hit.also ?? [] } : {}),
  };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
