/**
 * An entity's page ([E1] in docs/PRODUCT.md): its names, the facts and notes about it with their
 * citations, every mention with a snippet and the range it cites, related entities, where each
 * piece came from, and what is retired or superseded kept apart with its replacement.
 *
 * Scope is checked on every piece: an edge counts only when both its ends are visible to the user,
 * and a replacement is named only when the user can see it.
 */
import type {
  EntityDossier,
  EntityFact,
  EntityMention,
  PieceOrigin,
  RelatedEntity,
  RetiredPiece,
} from '#shared/api/types.ts';
import type { Db } from '../db/driver.ts';
import { getRow, type ItemRow } from '../read/items.ts';
import { canSee } from '../scope.ts';
import { citationOf } from '../search/search.ts';
import { possibleDuplicates, toRef } from './entities.ts';
import { type EntityKind, entityAliases, normaliseName } from './graph.ts';

const MENTIONS_MAX = 200;
const FACTS_MAX = 100;
const RELATED_MAX = 40;
const SNIPPET_CHARS = 90;
const FACT_CHARS = 600;

type Linked = {
  edge_id: string;
  type: string;
  props: string | null;
  edge_retired: string | null;
  e_actor: string;
  e_source: string;
  e_run: string | null;
  e_at: string;
  outgoing: number;
} & ItemRow;

function edgeOrigin(r: Linked): PieceOrigin {
  return { actor: r.e_actor, source: r.e_source, run: r.e_run, at: r.e_at };
}

function itemOrigin(r: ItemRow): PieceOrigin {
  return { actor: r.origin_actor, source: r.origin_source, run: r.origin_run, at: r.origin_at };
}

function parseProps(text: string | null): Record<string, unknown> {
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Every visible item joined to the entity by an edge, in both directions, newest edge first. */
function linkedItems(db: Db, scopes: readonly string[], entityId: string): Linked[] {
  return db
    .prepare(
      `SELECT i.*, e.id AS edge_id, e.type, e.props, e.retired_at AS edge_retired, e.origin_actor AS e_actor,
         e.origin_source AS e_source, e.origin_run AS e_run, e.origin_at AS e_at, 1 AS outgoing
       FROM edges e JOIN items i ON i.id = e.to_id
       WHERE e.from_id = @id AND i.scope IN (SELECT value FROM json_each(@scopes))
       UNION ALL
       SELECT i.*, e.id AS edge_id, e.type, e.props, e.retired_at AS edge_retired, e.origin_actor AS e_actor,
         e.origin_source AS e_source, e.origin_run AS e_run, e.origin_at AS e_at, 0 AS outgoing
       FROM edges e JOIN items i ON i.id = e.from_id
       WHERE e.to_id = @id AND i.scope IN (SELECT value FROM json_each(@scopes))
       ORDER BY e_at DESC, edge_id LIMIT 5000`,
    )
    .all({ id: entityId, scopes: JSON.stringify(scopes) }) as Linked[];
}

function visible(db: Db, scopes: readonly string[], id: string | null): ItemRow | null {
  if (!id) return null;
  const row = getRow(db, id);
  return row && canSee(scopes, row.scope) ? row : null;
}

function snippetOf(body: string, span: { start: number; end: number } | null, text: string) {
  let at = span && span.end <= body.length ? span : null;
  if (!at && text) {
    const found = body.indexOf(text);
    if (found >= 0) at = { start: found, end: found + text.length };
  }
  if (!at) return { snippet: { before: '', match: text, after: '' }, span: null };
  const before = body.slice(Math.max(0, at.start - SNIPPET_CHARS), at.start);
  const after = body.slice(at.end, at.end + SNIPPET_CHARS);
  return {
    snippet: {
      before: (at.start > SNIPPET_CHARS ? '…' : '') + before.replace(/\s+/g, ' ').trimStart(),
      match: body.slice(at.start, at.end),
      after: after.replace(/\s+/g, ' ').trimEnd() + (at.end + SNIPPET_CHARS < body.length ? '…' : ''),
    },
    span: at,
  };
}

function toMention(db: Db, scopes: readonly string[], r: Linked): EntityMention {
  const props = parseProps(r.props);
  const span = (props.span as { start: number; end: number } | null | undefined) ?? null;
  const text = typeof props.mention === 'string' ? props.mention : '';
  const file = r.storage_kind === 'section' ? visible(db, scopes, r.file_id) : null;
  const where = snippetOf(r.body, span, text);
  return {
    edgeId: r.edge_id,
    name: typeof props.name === 'string' ? props.name : text,
    item: toRef(r),
    file: file ? toRef(file) : null,
    snippet: where.snippet,
    span: where.span,
    citation: citationOf(r, file ?? undefined),
    origin: edgeOrigin(r),
  };
}

/** A note's citation: the section or file it points at, when it points at one the user can see. */
function noteCitation(db: Db, scopes: readonly string[], note: ItemRow) {
  const target = db
    .prepare(
      `SELECT i.* FROM edges e JOIN items i ON i.id = e.to_id WHERE e.from_id = ? AND e.retired_at IS NULL
       AND i.storage_kind IN ('section', 'file') AND i.scope IN (SELECT value FROM json_each(?)) LIMIT 1`,
    )
    .get(note.id, JSON.stringify(scopes)) as ItemRow | undefined;
  if (!target) return null;
  const file = target.storage_kind === 'section' ? visible(db, scopes, target.file_id) : target;
  return citationOf(target, file ?? undefined);
}

function toFact(db: Db, scopes: readonly string[], r: Linked): EntityFact {
  const file = r.storage_kind === 'section' ? visible(db, scopes, r.file_id) : null;
  const citation = r.storage_kind === 'note' ? noteCitation(db, scopes, r) : citationOf(r, file ?? undefined);
  const text = r.body.length > FACT_CHARS ? `${r.body.slice(0, FACT_CHARS)}…` : r.body;
  return {
    item: toRef(r),
    text: text || r.label,
    via: r.type,
    citation,
    origin: r.type === 'MENTIONS' ? itemOrigin(r) : edgeOrigin(r),
    occurredAt: r.occurred_at,
  };
}

function toRetired(db: Db, scopes: readonly string[], r: Linked, what: RetiredPiece['what']): RetiredPiece {
  const replacement = visible(db, scopes, r.superseded_by);
  return {
    item: toRef(r),
    what,
    retiredAt: r.retired_at ?? r.edge_retired,
    replacement: replacement ? toRef(replacement) : null,
    origin: edgeOrigin(r),
  };
}

/** Entities named in the same items as this one (most shared items first). */
function coMentioned(db: Db, scopes: readonly string[], entityId: string): RelatedEntity[] {
  const rows = db
    .prepare(
      `SELECT o.*, COUNT(DISTINCT m2.from_id) AS n FROM edges m1
       JOIN edges m2 ON m2.from_id = m1.from_id AND m2.type = 'MENTIONS' AND m2.to_id <> m1.to_id AND m2.retired_at IS NULL
       JOIN items s ON s.id = m1.from_id JOIN items o ON o.id = m2.to_id
       WHERE m1.to_id = @id AND m1.type = 'MENTIONS' AND m1.retired_at IS NULL
         AND s.retired_at IS NULL AND o.retired_at IS NULL AND o.storage_kind = 'entity'
         AND s.scope IN (SELECT value FROM json_each(@scopes)) AND o.scope IN (SELECT value FROM json_each(@scopes))
       GROUP BY o.id ORDER BY n DESC, o.label LIMIT @limit`,
    )
    .all({ id: entityId, scopes: JSON.stringify(scopes), limit: RELATED_MAX }) as (ItemRow & {
    n: number;
  })[];
  return rows.map((r) => ({ entity: toRef(r), via: 'CO_MENTIONED', count: r.n, soft: false }));
}

function relatedOf(db: Db, scopes: readonly string[], entity: ItemRow, linked: Linked[]): RelatedEntity[] {
  const direct = new Map<string, RelatedEntity>();
  for (const r of linked) {
    if (r.storage_kind !== 'entity' || r.retired_at || r.edge_retired) continue;
    const key = `${r.id}|${r.type}`;
    const seen = direct.get(key);
    if (seen) seen.count++;
    else direct.set(key, { entity: toRef(r), via: r.type, count: 1, soft: r.type === 'SAME_AS' });
  }
  const shown = new Set([...direct.values()].map((d) => d.entity.id));
  const co = coMentioned(db, scopes, entity.id).filter((c) => !shown.has(c.entity.id));
  return [...direct.values(), ...co].slice(0, RELATED_MAX);
}

export function entityDossier(db: Db, scopes: readonly string[], entity: ItemRow): EntityDossier {
  const kind: EntityKind =
    entity.kind === 'person' || entity.kind === 'company' || entity.kind === 'project'
      ? entity.kind
      : 'other';
  const linked = linkedItems(db, scopes, entity.id);
  const mentions: EntityMention[] = [];
  const facts: EntityFact[] = [];
  const retired: RetiredPiece[] = [];
  let mentionTotal = 0;
  let factTotal = 0;
  for (const r of linked) {
    // A source's claims are the page's facts (facts.list, docs/FACTS.md [K1]), not linked items.
    if (r.storage_kind === 'entity' || r.type === 'FACT') continue;
    const isMention = r.type === 'MENTIONS' && r.outgoing === 0;
    const isFact = r.storage_kind === 'note' || !isMention;
    if (r.retired_at || r.edge_retired) {
      retired.push(toRetired(db, scopes, r, isMention ? 'mention' : isFact ? 'fact' : 'link'));
      continue;
    }
    if (isMention && mentionTotal++ < MENTIONS_MAX) mentions.push(toMention(db, scopes, r));
    if (isFact && factTotal++ < FACTS_MAX) facts.push(toFact(db, scopes, r));
  }
  return {
    aliases: entityAliases(entity).map((name) => ({ name, normalised: normaliseName(name, kind) })),
    facts,
    mentions,
    related: relatedOf(db, scopes, entity, linked),
    retired,
    duplicates: possibleDuplicates(db, scopes, { id: entity.id, limit: 10 }),
    totals: { mentions: mentionTotal, facts: factTotal },
  };
}
