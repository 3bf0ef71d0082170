/**
 * The graph writes and reads agents use: mentions of entities, custom links, neighborhoods.
 *
 * - Entities are kept per scope ("faces", [E1] in docs/PRODUCT.md): a mention in an item creates or
 *   finds the entity of that name and kind in the item's (narrowest) scope, so consolidation never
 *   shows anyone a source they cannot see. Found by canonical (kind + normalised name).
 * - Nothing ever merges: SAME_AS is a soft edge like any other.
 * - A neighborhood shows an edge only when both ends are visible; scope is checked inside the
 *   query, before the caps, so hidden edges never use up a hop's budget.
 */
import { ENTITY_KINDS } from '#shared/api/ops/graph.ts';
import { NEIGHBORHOOD_EDGES_PER_HOP, NEIGHBORHOOD_ITEMS_PER_HOP } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import { edgeDiscriminator } from '#shared/ids.ts';
import type { StorageKind } from '#shared/types.ts';
import type { BlobStore } from '../add/blobs.ts';
import type { Db } from '../db/driver.ts';
import { writeTx } from '../db/driver.ts';
import { edgeId, entityItemId } from '../ids.ts';
import { ftsDelete, ftsInsert, getRow, type ItemRow } from '../read/items.ts';
import { textOf, visibleRow } from '../read/read.ts';
import { narrowestScope } from '../scope.ts';

/** Who writes: a member on the app or the command line has no run (src/engine/commands/types.ts). */
export type Origin = { actor: string; source: string; run: string | null };
export { ENTITY_KINDS };
export type EntityKind = (typeof ENTITY_KINDS)[number];

const LEGAL_SUFFIXES = [
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'ltd',
  'limited',
  'llc',
  'llp',
  'plc',
  'gmbh',
  'ag',
  'kg',
  'sa',
  's a',
  'sas',
  'sarl',
  'srl',
  's r l',
  'spa',
  's p a',
  'bv',
  'b v',
  'nv',
  'oy',
  'ab',
  'as',
  'pty',
  'pte',
  'kk',
];

/**
 * The name an entity is found by: lowercase, accents stripped, punctuation collapsed to single
 * spaces and, for companies and other organisations, legal suffixes (Inc, Ltd, GmbH, S.r.l. …)
 * removed. "ACME, Inc." and "Acme" are the same company; "Café Noir S.r.l." is "cafe noir".
 */
export function normaliseName(name: string, kind: EntityKind): string {
  let n = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  if (kind === 'company' || kind === 'other') {
    for (let changed = true; changed; ) {
      changed = false;
      for (const suffix of LEGAL_SUFFIXES) {
        if (n.endsWith(` ${suffix}`) && n.length > suffix.length + 1) {
          n = n.slice(0, -(suffix.length + 1)).trim();
          changed = true;
        }
      }
    }
  }
  return n;
}

export { edgeId };

export type EdgeView = { id: string; type: string; from: string; to: string; props: Record<string, unknown> };
export type ItemView = { id: string; label: string; storageKind: StorageKind; kind: string; scope: string };

function itemView(row: ItemRow): ItemView {
  return { id: row.id, label: row.label, storageKind: row.storage_kind, kind: row.kind, scope: row.scope };
}

export function upsertEdge(db: Db, edge: EdgeView, origin: Origin, now: string): void {
  db.prepare(
    `INSERT INTO edges (id, type, from_id, to_id, props, origin_actor, origin_source, origin_run, origin_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET props = excluded.props, retired_at = NULL, origin_actor = excluded.origin_actor,
       origin_source = excluded.origin_source, origin_run = excluded.origin_run, origin_at = excluded.origin_at`,
  ).run(
    edge.id,
    edge.type,
    edge.from,
    edge.to,
    JSON.stringify(edge.props),
    origin.actor,
    origin.source,
    origin.run,
    now,
  );
}

// ---- mentions ----

export type MentionInput = {
  itemId: string;
  name: string;
  kind: EntityKind;
  span?: { start: number; end: number };
  quote?: string;
};

export type MentionResult = { entity: ItemView & { created: boolean }; edge: EdgeView };

/**
 * The text a caller's span or quote counts in: what brain_read returns for the whole item. For a
 * file that is its whole text, read from its bytes, not its row's body (its title and opening, what
 * search ranks it by); for a section or a note, its body, which the indexing audit counts in too.
 * Null when the body is that text. Throws not-found, as a read does, for an item the caller cannot see.
 */
export async function spanText(
  db: Db,
  blobs: BlobStore,
  id: string,
  scopes: readonly string[],
): Promise<string | null> {
  const row = visibleRow(db, id, scopes);
  return row.storage_kind === 'file' ? (await textOf(db, blobs, row, scopes)).text : null;
}

/** Where the name is in `text` (the item's body unless spanText gave its read text). */
export function locateMention(
  item: ItemRow,
  input: Pick<MentionInput, 'span' | 'quote' | 'name'>,
  text: string | null = null,
): { span: { start: number; end: number } | null; text: string } {
  const body = text ?? item.body;
  if (input.span) {
    const { start, end } = input.span;
    if (end <= start)
      throw new AppError('validation-failed', `span.end (${end}) must be after span.start (${start}).`);
    if (body && end > body.length) {
      throw new AppError(
        'validation-failed',
        `span ${start}-${end} is outside ${item.id}'s text (${body.length} characters); read it with brain_read first.`,
      );
    }
    // Offsets count UTF-16 code units (as brain_read's text does in JavaScript): one inside a
    // character outside the BMP (an emoji, a rare CJK ideograph) would store half of it.
    const splits = (at: number) =>
      at > 0 &&
      at < body.length &&
      /[\uDC00-\uDFFF]/.test(body[at] ?? '') &&
      /[\uD800-\uDBFF]/.test(body[at - 1] ?? '');
    if (body && (splits(start) || splits(end)))
      throw new AppError(
        'validation-failed',
        `span ${start}-${end} cuts a character of ${item.id}'s text in two (offsets count UTF-16 code units, and a character such as an emoji takes two); pass a quote instead.`,
      );
    // Both given: the span must hold the quote, or the citation would not say what the caller quoted.
    const held = body ? body.slice(start, end) : input.name;
    if (input.quote && body && held !== input.quote) {
      const shown = (t: string) => JSON.stringify(t.length > 80 ? `${t.slice(0, 80)}…` : t);
      throw new AppError(
        'validation-failed',
        `span ${start}-${end} of ${item.id}'s text is ${shown(held)}, not the quote ${shown(input.quote)}; give one of them, or a span that holds the quote.`,
      );
    }
    return { span: { start, end }, text: held };
  }
  if (input.quote) {
    const at = body.indexOf(input.quote);
    if (at < 0) {
      throw new AppError(
        'validation-failed',
        `The quote does not occur in ${item.id}'s text; pass the exact words as they appear, or a span {start, end}.`,
      );
    }
    return { span: { start: at, end: at + input.quote.length }, text: input.quote };
  }
  throw new AppError(
    'validation-failed',
    'Say where the name occurs: a span {start, end} or a quote of the text.',
  );
}

/** Finds the entity of this kind and normalised name in the scope, or creates it. Inside a transaction. */
export function findOrCreateEntity(
  db: Db,
  workspaceId: string,
  input: { name: string; kind: EntityKind; normalised: string; scope: string },
  origin: Origin,
  now: string,
): { row: ItemRow; created: boolean } {
  const found = db
    .prepare(
      `SELECT * FROM items WHERE storage_kind = 'entity' AND scope = ? AND canonical_type = ? AND canonical_value = ?
       AND retired_at IS NULL ORDER BY rowid LIMIT 1`,
    )
    .get(input.scope, input.kind, input.normalised) as ItemRow | undefined;
  if (found) {
    const aliases = found.body.split('\n');
    if (!aliases.includes(input.name)) {
      // A new spelling of a known name becomes an alias: findable by keyword too.
      ftsDelete(db, found);
      db.prepare('UPDATE items SET body = ?, updated_at = ?, version = version + 1 WHERE id = ?').run(
        [...aliases, input.name].join('\n'),
        now,
        found.id,
      );
      const updated = getRow(db, found.id) as ItemRow;
      ftsInsert(db, updated);
      return { row: updated, created: false };
    }
    return { row: found, created: false };
  }
  const sourceKey = `entity:${input.scope}:${input.kind}:${input.normalised}`;
  const id = entityItemId(workspaceId, input.scope, sourceKey);
  db.prepare(
    `INSERT INTO items (id, workspace_id, storage_kind, kind, label, body, source_key, canonical_type, canonical_value,
       indexed, scope, origin_actor, origin_source, origin_run, origin_at, occurred_at, created_at, updated_at)
     VALUES (?, ?, 'entity', ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    workspaceId,
    input.kind,
    input.name,
    input.name,
    sourceKey,
    input.kind,
    input.normalised,
    input.scope,
    origin.actor,
    origin.source,
    origin.run,
    now,
    now,
    now,
    now,
  );
  const row = getRow(db, id) as ItemRow;
  ftsInsert(db, row);
  return { row, created: true };
}

export function observeMention(
  db: Db,
  workspaceId: string,
  scopes: readonly string[],
  input: MentionInput,
  origin: Origin,
  /** The item's text as brain_read returns it, when that is not its body (spanText). */
  text: string | null = null,
): MentionResult {
  const name = input.name.trim();
  const normalised = normaliseName(name, input.kind);
  if (!normalised)
    throw new AppError('validation-failed', `"${input.name}" has no letters or digits to name an entity.`);
  return writeTx(db, () => {
    const item = visibleRow(db, input.itemId, scopes);
    const where = locateMention(item, input, text);
    // The entity face takes the narrowest scope of its sources: here, the one item it was seen in.
    const scope = narrowestScope([item.scope]);
    if (!scope)
      throw new AppError('forbidden', `No single scope fits ${item.id}; the mention is not recorded.`);
    const now = new Date().toISOString();
    const entity = findOrCreateEntity(
      db,
      workspaceId,
      { name, kind: input.kind, normalised, scope },
      origin,
      now,
    );
    if (entity.created) linkFaces(db, entity.row, origin, now);
    const props = { mention: where.text, name, span: where.span };
    // Told apart by where the mention is, read from its props (the server recomputes the id).
    const discriminator = edgeDiscriminator('MENTIONS', JSON.stringify(props));
    const edge: EdgeView = {
      id: edgeId(item.id, 'MENTIONS', entity.row.id, discriminator),
      type: 'MENTIONS',
      from: item.id,
      to: entity.row.id,
      props,
    };
    upsertEdge(db, edge, origin, now);
    return { entity: { ...itemView(entity.row), created: entity.created }, edge };
  });
}

/** Every name sources used for an entity: its body keeps one per line, first seen first. */
export function entityAliases(row: Pick<ItemRow, 'body' | 'label'>): string[] {
  const names = row.body.split('\n').filter((n) => n.trim() !== '');
  return names.length ? [...new Set(names)] : [row.label];
}

/**
 * A new face of a name already known in other scopes is joined to those faces with a soft SAME_AS
 * edge, never merged. The edge is visible only to someone who sees both faces (section 9).
 */
export function linkFaces(db: Db, entity: ItemRow, origin: Origin, now: string): void {
  const faces = db
    .prepare(
      `SELECT id FROM items WHERE storage_kind = 'entity' AND canonical_type = ? AND canonical_value = ?
       AND scope <> ? AND retired_at IS NULL ORDER BY rowid LIMIT 20`,
    )
    .all(entity.canonical_type, entity.canonical_value, entity.scope) as { id: string }[];
  for (const face of faces) {
    upsertEdge(
      db,
      {
        id: edgeId(entity.id, 'SAME_AS', face.id),
        type: 'SAME_AS',
        from: entity.id,
        to: face.id,
        props: { soft: true, faces: true },
      },
      origin,
      now,
    );
  }
}

// ---- links ----

const RESERVED: Record<string, string> = {
  HAS_SECTION: 'HAS_SECTION edges are made by indexing a file.',
  FACT: 'State a fact with brain_fact (`brain fact add` on the command line).',
  MENTIONS: 'Record a mention with brain_observe_mention (`brain mention` on the command line).',
  SUPERSEDES:
    'Replacing knowledge retires the old item; write the new version with add_to_brain and the same source_key instead.',
};

/** Free-text link types are kept as UPPER_SNAKE_CASE ("same as" and "same-as" are SAME_AS). */
export function normaliseLinkType(type: string): string {
  const t = type
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  if (!/^[A-Z][A-Z0-9_:]{0,63}$/.test(t)) {
    throw new AppError(
      'validation-failed',
      `Link type "${type}" must start with a letter and use letters, digits, spaces, _ - or : (at most 64).`,
    );
  }
  return t;
}

export function linkItems(
  db: Db,
  scopes: readonly string[],
  input: { from: string; to: string; type: string; note?: string },
  origin: Origin,
): EdgeView {
  const type = normaliseLinkType(input.type);
  const reserved = RESERVED[type];
  if (reserved) throw new AppError('validation-failed', `${type} is not a custom link type. ${reserved}`);
  if (input.from === input.to) throw new AppError('validation-failed', 'An item cannot be linked to itself.');
  return writeTx(db, () => {
    const from = visibleRow(db, input.from, scopes);
    const to = visibleRow(db, input.to, scopes);
    const props: Record<string, unknown> = {};
    if (input.note?.trim()) props.note = input.note.trim();
    // SAME_AS records a belief that two items are the same thing. It is soft: nothing merges,
    // both items keep their ids, bodies, scopes and search places.
    if (type === 'SAME_AS') props.soft = true;
    const edge: EdgeView = { id: edgeId(from.id, type, to.id), type, from: from.id, to: to.id, props };
    upsertEdge(db, edge, origin, new Date().toISOString());
    return edge;
  });
}

// ---- neighborhood ----

type Hop = { hop: number; items: ItemView[]; edges: EdgeView[]; truncated: boolean };
export type Neighborhood = { center: ItemView; hops: Hop[] };

type EdgeRow = { id: string; type: string; from_id: string; to_id: string; props: string | null };

const CANDIDATES_PER_HOP = 2000;

export function neighborhood(db: Db, scopes: readonly string[], id: string, hops: number): Neighborhood {
  const center = visibleRow(db, id, scopes);
  const known = new Set([center.id]);
  const seenEdges = new Set<string>();
  let frontier = [center.id];
  const out: Hop[] = [];
  const scopeJson = JSON.stringify(scopes);
  const query = db.prepare(
    `SELECT e.id, e.type, e.from_id, e.to_id, e.props FROM edges e
     JOIN items a ON a.id = e.from_id JOIN items b ON b.id = e.to_id
     WHERE e.retired_at IS NULL
       AND (e.from_id IN (SELECT value FROM json_each(@frontier)) OR e.to_id IN (SELECT value FROM json_each(@frontier)))
       AND a.scope IN (SELECT value FROM json_each(@scopes)) AND b.scope IN (SELECT value FROM json_each(@scopes))
       AND a.retired_at IS NULL AND b.retired_at IS NULL
     ORDER BY e.origin_at DESC, e.id LIMIT @limit`,
  );
  for (let hop = 1; hop <= hops && frontier.length > 0; hop++) {
    const limit = CANDIDATES_PER_HOP + seenEdges.size;
    const rows = query.all({ frontier: JSON.stringify(frontier), scopes: scopeJson, limit }) as EdgeRow[];
    const fresh: string[] = [];
    const edges: EdgeView[] = [];
    let truncated = rows.length >= limit;
    for (const e of rows) {
      if (seenEdges.has(e.id)) continue;
      if (edges.length >= NEIGHBORHOOD_EDGES_PER_HOP) {
        truncated = true;
        break;
      }
      const ends = [e.from_id, e.to_id].filter((end) => !known.has(end) && !fresh.includes(end));
      if (fresh.length + ends.length > NEIGHBORHOOD_ITEMS_PER_HOP) {
        truncated = true;
        continue;
      }
      fresh.push(...ends);
      seenEdges.add(e.id);
      edges.push({
        id: e.id,
        type: e.type,
        from: e.from_id,
        to: e.to_id,
        props: e.props ? JSON.parse(e.props) : {},
      });
    }
    for (const f of fresh) known.add(f);
    out.push({ hop, items: loadViews(db, fresh), edges, truncated });
    frontier = fresh;
  }
  return { center: itemView(center), hops: out };
}

function loadViews(db: Db, ids: readonly string[]): ItemView[] {
  if (ids.length === 0) return [];
  const rows = db
    .prepare('SELECT * FROM items WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(ids)) as ItemRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [itemView(r)] : [];
  });
}
