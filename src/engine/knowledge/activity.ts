/**
 * The Activity list (`brain activity` and the app's Activity screen): the telemetry of one user,
 * newest first, each entry with a one-line summary and, for injection turns, whether the brain
 * spoke and why (not).
 *
 * Who sees what: a user sees only their own entries (their searches, their chat turns, the tool
 * calls of agents acting as them). Queries are private to whoever typed them, so there is no
 * cross-user view here; an admin view, if ever, belongs to the workspace server. Item ids in an
 * entry are re-checked against the reader's scopes today: an item that has since left them keeps
 * its id but shows no label.
 */
import type { ActivityEntry } from '#shared/api/types.ts';
import type { ActAsEventData } from '../acting-as.ts';
import type { Db } from '../db/driver.ts';
import { canSee, visibleScopes } from '../scope.ts';
import type { InjectEventData, SearchEventData, ToolEventData } from '../telemetry.ts';

const ACTIVITY_LIMIT_DEFAULT = 50;
const ACTIVITY_LIMIT_MAX = 500;

export type { ActivityEntry } from '#shared/api/types.ts';

export type ActivityQuery = {
  user: string;
  limit?: number;
  /** Only entries older than this entry id (the `id` of the last entry of the previous page). */
  before?: number;
  events?: readonly string[];
};

type Row = { id: number; at: string; surface: string; user_id: string; event: string; data: string };

export function listActivity(db: Db, query: ActivityQuery): ActivityEntry[] {
  const limit = Math.min(Math.max(1, Math.floor(query.limit ?? ACTIVITY_LIMIT_DEFAULT)), ACTIVITY_LIMIT_MAX);
  const rows = db
    .prepare(
      `SELECT id, at, surface, user_id, event, data FROM telemetry
       WHERE user_id = ? AND id < ? AND (? IS NULL OR event IN (SELECT value FROM json_each(?)))
       ORDER BY id DESC LIMIT ?`,
    )
    .all(
      query.user,
      query.before ?? Number.MAX_SAFE_INTEGER,
      query.events ? 1 : null,
      JSON.stringify(query.events ?? []),
      limit,
    ) as Row[];
  const labels = visibleLabels(db, query.user, rows);
  return rows.map((row) => toEntry(row, labels));
}

function parse(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function idsIn(event: string, data: Record<string, unknown>): string[] {
  if (event === 'search') return ((data as SearchEventData).hits ?? []).map((h) => h.id);
  if (event === 'inject') return ((data as InjectEventData).injected ?? []).map((h) => h.id);
  return [];
}

function visibleLabels(db: Db, user: string, rows: readonly Row[]): Map<string, string> {
  const ids = new Set<string>();
  for (const r of rows) for (const id of idsIn(r.event, parse(r.data))) ids.add(id);
  if (ids.size === 0) return new Map();
  const scopes = visibleScopes(db, user);
  const items = db
    .prepare('SELECT id, label, scope FROM items WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify([...ids])) as { id: string; label: string; scope: string }[];
  return new Map(items.filter((i) => canSee(scopes, i.scope)).map((i) => [i.id, i.label]));
}

function quoted(q: unknown): string {
  const s = String(q ?? '').replace(/\s+/g, ' ');
  return `"${s.length > 60 ? `${s.slice(0, 59)}…` : s}"`;
}

function toEntry(row: Row, labels: Map<string, string>): ActivityEntry {
  const data = parse(row.data);
  const base = { id: row.id, at: row.at, surface: row.surface, user: row.user_id, event: row.event, data };
  const label = (id: string) => labels.get(id) ?? null;
  if (row.event === 'inject') {
    const d = data as InjectEventData;
    const items = (d.injected ?? []).map((i) => ({
      id: i.id,
      label: label(i.id),
      score: i.score,
      isAnchor: i.isAnchor,
    }));
    const spoke = items.length > 0;
    const summary = spoke
      ? `spoke: ${items.length} item${items.length === 1 ? '' : 's'}, ${d.tokens} tokens for ${quoted(d.query)}`
      : `silent for ${quoted(d.query)}: ${d.reason}`;
    return { ...base, summary, spoke, reason: d.reason, query: d.query, items, ms: d.ms };
  }
  if (row.event === 'search') {
    const d = data as SearchEventData;
    const items = (d.hits ?? []).map((h) => ({ id: h.id, label: label(h.id), score: h.score }));
    const best = items[0]?.score;
    const summary = `search ${quoted(d.query)}: ${items.length} hit${items.length === 1 ? '' : 's'}${
      best === undefined || best === null ? '' : ` (best ${best.toFixed(4)})`
    }${d.semantic ? '' : ', keyword only'}`;
    return { ...base, summary, query: d.query, items, ms: d.ms };
  }
  if (row.event === 'tool') {
    const d = data as ToolEventData;
    const outcome = d.ok ? 'ok' : `failed: error[${d.error?.code}] ${d.error?.message ?? ''}`.trim();
    return {
      ...base,
      summary: `${d.tool} by ${d.agent} (run ${d.run}) ${outcome} in ${d.ms} ms`,
      tool: d.tool,
      ok: d.ok,
      ms: d.ms,
    };
  }
  if (row.event === 'act-as') {
    // [R3] in docs/RETRIEVAL.md: the admin's own record of acting as someone else.
    const d = data as ActAsEventData;
    return { ...base, summary: `acted as ${d.as} (brain ${d.command}, ${d.surface})` };
  }
  if (typeof data.summary === 'string') return { ...base, summary: data.summary };
  return { ...base, summary: `${row.event} ${JSON.stringify(data).slice(0, 100)}` };
}
