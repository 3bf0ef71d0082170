/**
 * Facts over time (docs/FACTS.md): a claim is a FACT edge from a source to the entity's face in the
 * source's scope ([K1]); facts are derived from the claims each time they are read ([K2]–[K5]), so
 * every replica that holds the same claims and sources shows the same page, and removing a source
 * changes the page with no other write.
 */
import { createHash } from 'node:crypto';

import { FACT_INPUT_LIMITS } from '#shared/api/ops/facts.ts';
import { AppError } from '#shared/errors.ts';
import { edgeDiscriminator, factKey, looksLikeId } from '#shared/ids.ts';
import type { Citation } from '#shared/types.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import { edgeId } from '../ids.ts';
import { getRow, type ItemRow } from '../read/items.ts';
import { visibleRow } from '../read/read.ts';
import { canSee } from '../scope.ts';
import { citationOf } from '../search/search.ts';
import {
  type EdgeView,
  type EntityKind,
  findOrCreateEntity,
  type ItemView,
  linkFaces,
  locateMention,
  normaliseName,
  type Origin,
  upsertEdge,
} from './graph.ts';
import { liveSectionsSaying } from './quote-sections.ts';
import { versionCount, versionHolding } from './versions.ts';

export type FactInput = {
  /** An entity's id, or a name (with `kind`) found or made in the source's scope. */
  entity: string;
  kind?: EntityKind;
  statement: string;
  attribute?: string | null;
  validAt?: string | null;
  /** How the caller's surface spells `validAt` in its errors (`valid_at`, `--valid-at`); `validAt` unless given. */
  validAtField?: string;
  citation: { item: string; span?: { start: number; end: number }; quote?: string };
};

/** A claim's props, as its FACT edge keeps them (the edge id is made from attribute and statement). */
type ClaimProps = {
  statement: string;
  attribute: string | null;
  validAt: string;
  quote: string;
  span: { start: number; end: number } | null;
};

type FactCitation = {
  item: ItemView;
  citation: Citation | null;
  quote: string;
  span: { start: number; end: number } | null;
  validAt: string;
  origin: { actor: string; source: string; run: string | null; at: string };
  source: { id: string; label: string; versions: number };
};

export type Fact = {
  id: string;
  entity: string;
  statement: string;
  attribute: string | null;
  validAt: string;
  status: 'current' | 'retired';
  /** Why a retired fact is: replaced by a newer one, no source left, or retired by someone. */
  reason: 'superseded' | 'no source' | 'retired' | null;
  supersededBy: string | null;
  retiredAt: string | null;
  citations: FactCitation[];
  /** Who stated it first, and when. */
  origin: { actor: string; source: string; run: string | null; at: string };
};

function itemView(row: ItemRow): ItemView {
  return { id: row.id, label: row.label, storageKind: row.storage_kind, kind: row.kind, scope: row.scope };
}

/** A fact's id: its face, and a hash of what it states ([K2]). */
export function factId(faceId: string, attribute: string | null, statement: string): string {
  return `${faceId}.${createHash('sha256').update(factKey(attribute, statement)).digest('hex').slice(0, 12)}`;
}

// A calendar date, or an ISO 8601 instant with its zone; Date.parse alone takes "hello 1" for
// 2001-01-01 and rolls 2026-02-30 over to March 2 (docs/FACTS.md [K1]).
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT_RE = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function isCalendarDay(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return (
    Number(y) >= 1 &&
    date.getUTCFullYear() === Number(y) &&
    date.getUTCMonth() === Number(m) - 1 &&
    date.getUTCDate() === Number(d)
  );
}

function validDate(text: string, what: string): string {
  const refuse = (): never => {
    throw new AppError(
      'validation-failed',
      `${what} "${text}" is not a date (use YYYY-MM-DD, or an ISO 8601 time with its zone).`,
    );
  };
  const day = DAY_RE.exec(text);
  if (day) return isCalendarDay(day[1] ?? '', day[2] ?? '', day[3] ?? '') ? text : refuse();
  const instant = INSTANT_RE.exec(text);
  const t = Date.parse(text);
  if (!instant || Number.isNaN(t) || !isCalendarDay(instant[1] ?? '', instant[2] ?? '', instant[3] ?? ''))
    return refuse();
  return new Date(t).toISOString();
}

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

/** The face of the entity in `scope`: the named entity itself when it is there, else its face there. */
function faceIn(
  db: Db,
  workspaceId: string,
  scopes: readonly string[],
  input: FactInput,
  scope: string,
  origin: Origin,
  now: string,
): ItemRow {
  let name = input.entity.trim();
  let kind: EntityKind = input.kind ?? 'other';
  // An item's id (src/shared/ids.ts) is that item: an entity's is the entity; any other item's is
  // refused, not made into an entity named after the id. One that names nothing here is missing.
  if (looksLikeId(name)) {
    const entity = visibleRow(db, name, scopes);
    if (entity.storage_kind !== 'entity')
      throw new AppError(
        'validation-failed',
        `${entity.id} (${entity.label}) is ${article(entity.storage_kind)} ${entity.storage_kind}, not an entity: name the entity (with kind), or give an entity's id (e_…).`,
      );
    if (entity.scope === scope) return entity;
    name = entity.label;
    kind = (entity.canonical_type ?? entity.kind) as EntityKind;
  }
  const normalised = normaliseName(name, kind);
  if (!normalised)
    throw new AppError('validation-failed', `"${input.entity}" has no letters or digits to name an entity.`);
  const face = findOrCreateEntity(db, workspaceId, { name, kind, normalised, scope }, origin, now);
  if (face.created) linkFaces(db, face.row, origin, now);
  return face.row;
}

/**
 * States a fact ([K6]): a claim from the cited source to the entity's face in the source's scope.
 * Stating the same fact from the same source again keeps one claim.
 */
export function stateFact(
  db: Db,
  workspaceId: string,
  scopes: readonly string[],
  input: FactInput,
  origin: Origin,
  /** The cited item's text as brain_read returns it, when that is not its body (spanText in graph.ts). */
  text: string | null = null,
): { fact: Fact; entity: ItemView; edge: EdgeView } {
  const statement = input.statement.trim().replace(/\s+/g, ' ');
  if (!statement) throw new AppError('validation-failed', 'Say what the fact is: a statement.');
  if (statement.length > FACT_INPUT_LIMITS.statementChars)
    throw new AppError(
      'validation-failed',
      `The statement is over ${FACT_INPUT_LIMITS.statementChars} characters.`,
    );
  const attribute = input.attribute?.trim().toLowerCase() || null;
  return writeTx(db, () => {
    const source = visibleRow(db, input.citation.item, scopes);
    if (source.storage_kind === 'entity')
      throw new AppError(
        'validation-failed',
        `${source.id} is an entity: cite the file, section or note that says it.`,
      );
    if (source.retired_at !== null)
      throw new AppError('validation-failed', `${source.id} is retired: cite a current source.`);
    if (!input.citation.span && !input.citation.quote)
      throw new AppError(
        'validation-failed',
        'Say where the source says it: a span {start, end} or a quote of its text.',
      );
    const where = locateMention(source, { ...input.citation, name: statement }, text);
    const now = new Date().toISOString();
    const face = faceIn(db, workspaceId, scopes, input, source.scope, origin, now);
    const validAt = input.validAt
      ? validDate(input.validAt, input.validAtField ?? 'validAt')
      : (source.occurred_at ?? now);
    const props: ClaimProps = {
      statement,
      attribute,
      validAt,
      quote: where.text.slice(0, FACT_INPUT_LIMITS.quoteChars),
      span: where.span,
    };
    const edge: EdgeView = {
      id: edgeId(source.id, 'FACT', face.id, edgeDiscriminator('FACT', JSON.stringify(props))),
      type: 'FACT',
      from: source.id,
      to: face.id,
      props,
    };
    upsertEdge(db, edge, origin, now);
    const fact = entityFacts(db, scopes, face.id, { history: true }).find(
      (f) => f.id === factId(face.id, attribute, statement),
    );
    if (!fact) throw new Error(`the fact just stated on ${face.id} is not on its page`);
    return { fact, entity: itemView(face), edge };
  });
}

type ClaimRow = {
  edge_id: string;
  props: string | null;
  edge_retired: string | null;
  e_actor: string;
  e_source: string;
  e_run: string | null;
  e_at: string;
} & ItemRow;

function parseClaim(text: string | null): ClaimProps | null {
  try {
    const p = text ? (JSON.parse(text) as Partial<ClaimProps>) : null;
    if (!p || typeof p.statement !== 'string' || typeof p.validAt !== 'string') return null;
    return {
      statement: p.statement,
      attribute: typeof p.attribute === 'string' ? p.attribute : null,
      validAt: p.validAt,
      quote: typeof p.quote === 'string' ? p.quote : '',
      span: p.span ?? null,
    };
  } catch {
    return null;
  }
}

type Group = {
  id: string;
  statement: string;
  attribute: string | null;
  live: { claim: ClaimProps; row: ClaimRow }[];
  all: { claim: ClaimProps; row: ClaimRow }[];
};

/**
 * Where a claim stands now ([K16]): its source when that is live and still says the quoted words; a
 * retired section's live successor in the same file that says them (a new version of a file keeps
 * the claims its text still makes); else nothing, and the claim no longer supports its fact.
 */
function supportingRow(db: Db, row: ClaimRow, quote: string): ClaimRow | null {
  const says = (body: string) => !quote || !body || body.includes(quote);
  if (row.retired_at === null) return says(row.body) ? row : null;
  if (row.storage_kind !== 'section' || !row.file_id || !quote) return null;
  const live = liveSectionsSaying(db, row.file_id, quote);
  const successor = live.find((s) => s.id === successorOf(db, row)) ?? live[0];
  return successor ? { ...row, ...successor } : null;
}

/** The live section that replaced a retired one (following `superseded_by`), if any. */
function successorOf(db: Db, row: ItemRow): string | null {
  let id = row.superseded_by;
  for (let hops = 0; id && hops < 100; hops++) {
    const next = stmt(db, 'SELECT retired_at, superseded_by FROM items WHERE id = ?').get(id) as
      | { retired_at: string | null; superseded_by: string | null }
      | undefined;
    if (!next || next.retired_at === null) return id;
    id = next.superseded_by;
  }
  return null;
}

/** For a claim its live source no longer makes: the earlier version that made it, to cite in history. */
function versionRow(db: Db, row: ClaimRow, quote: string): ClaimRow | null {
  if (row.retired_at !== null || row.storage_kind === 'section') return null;
  const version = versionHolding(db, row, quote);
  return version ? { ...row, ...version } : null;
}

const later = (a: string, b: string) => (Date.parse(a) || 0) - (Date.parse(b) || 0);

/** The newest claim of a group decides its statement's wording and its validAt. */
function newest(claims: Group['live']): Group['live'][number] | undefined {
  return [...claims].sort(
    (x, y) =>
      later(y.claim.validAt, x.claim.validAt) ||
      (y.row.e_at < x.row.e_at ? -1 : y.row.e_at > x.row.e_at ? 1 : 0),
  )[0];
}

/**
 * An entity face's facts as the reader sees them ([K2]–[K5]): current ones, and with `history` the
 * retired ones too, each with its citations (only sources the reader can see count).
 */
export function entityFacts(
  db: Db,
  scopes: readonly string[],
  entityId: string,
  options: { history?: boolean } = {},
): Fact[] {
  const face = getRow(db, entityId);
  if (face?.storage_kind !== 'entity' || !canSee(scopes, face.scope))
    throw new AppError('not-found', `No entity with id ${entityId}.`);
  const rows = stmt(
    db,
    `SELECT i.*, e.id AS edge_id, e.props, e.retired_at AS edge_retired, e.origin_actor AS e_actor,
       e.origin_source AS e_source, e.origin_run AS e_run, e.origin_at AS e_at
     FROM edges e JOIN items i ON i.id = e.from_id
     WHERE e.to_id = ? AND e.type = 'FACT' ORDER BY e.origin_at, e.id`,
  ).all(entityId) as ClaimRow[];
  const groups = new Map<string, Group>();
  for (const row of rows) {
    if (!canSee(scopes, row.scope)) continue;
    const claim = parseClaim(row.props);
    if (!claim) continue;
    const id = factId(entityId, claim.attribute, claim.statement);
    let g = groups.get(id);
    if (!g) {
      g = { id, statement: claim.statement, attribute: claim.attribute, live: [], all: [] };
      groups.set(id, g);
    }
    const support = row.edge_retired === null ? supportingRow(db, row, claim.quote) : null;
    g.all.push({ claim, row: support ? row : (versionRow(db, row, claim.quote) ?? row) });
    if (support && canSee(scopes, support.scope)) g.live.push({ claim, row: support });
  }
  const facts = [...groups.values()].map((g) => toFact(db, entityId, g));
  // [K4] Among supported facts of one attribute, the latest holds; the older ones point to it.
  const byAttribute = new Map<string, Fact[]>();
  for (const f of facts)
    if (f.status === 'current' && f.attribute)
      byAttribute.set(f.attribute, [...(byAttribute.get(f.attribute) ?? []), f]);
  for (const list of byAttribute.values()) {
    list.sort(
      (a, b) =>
        later(b.validAt, a.validAt) ||
        (b.origin.at < a.origin.at ? -1 : b.origin.at > a.origin.at ? 1 : 0) ||
        (a.id < b.id ? -1 : 1),
    );
    const [winner, ...older] = list;
    for (const f of older) {
      f.status = 'retired';
      f.reason = 'superseded';
      f.supersededBy = winner?.id ?? null;
      f.retiredAt = winner?.origin.at ?? null;
    }
  }
  const order = (a: Fact, b: Fact) =>
    (a.attribute ?? '\uffff').localeCompare(b.attribute ?? '\uffff') ||
    later(b.validAt, a.validAt) ||
    (a.id < b.id ? -1 : 1);
  return facts.filter((f) => options.history || f.status === 'current').sort(order);
}

/** The source a citation is in, with its number of versions ([K16]). */
function citedSource(db: Db, row: ItemRow, file: ItemRow | undefined) {
  const holder = row.storage_kind === 'section' ? (file ?? row) : row;
  const source =
    holder.superseded_by && holder.source_key.includes('@v')
      ? (getRow(db, holder.superseded_by) ?? holder)
      : holder;
  return { id: source.id, label: source.label, versions: versionCount(db, source) };
}

function toFact(db: Db, entityId: string, g: Group): Fact {
  const shown = newest(g.live) ?? newest(g.all);
  const first = g.all[0];
  const files = new Map<string, ItemRow | undefined>();
  const fileOf = (row: ItemRow) => {
    if (!row.file_id) return undefined;
    if (!files.has(row.file_id)) files.set(row.file_id, getRow(db, row.file_id));
    return files.get(row.file_id);
  };
  const seen = new Set<string>();
  // A claim carried to a new version and the same claim stated on it anew cite one place once.
  const cited = (g.live.length ? g.live : g.all).filter(({ claim, row }) => {
    const key = `${row.id}\0${claim.quote}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const citations = cited.map(({ claim, row }) => ({
    item: itemView(row),
    citation: citationOf(row, fileOf(row)),
    quote: claim.quote,
    span: claim.span,
    validAt: claim.validAt,
    origin: { actor: row.e_actor, source: row.e_source, run: row.e_run, at: row.e_at },
    source: citedSource(db, row, fileOf(row)),
  }));
  const supported = g.live.length > 0;
  const byPerson = g.all.every((c) => c.row.edge_retired !== null);
  const retiredAt = supported
    ? null
    : (g.all
        .map((c) => c.row.edge_retired ?? c.row.retired_at ?? '')
        .sort()
        .at(-1) ?? null);
  return {
    id: g.id,
    entity: entityId,
    statement: shown?.claim.statement ?? g.statement,
    attribute: g.attribute,
    validAt: shown?.claim.validAt ?? '',
    status: supported ? 'current' : 'retired',
    reason: supported ? null : byPerson ? 'retired' : 'no source',
    supersededBy: null,
    retiredAt,
    citations,
    origin: first
      ? { actor: first.row.e_actor, source: first.row.e_source, run: first.row.e_run, at: first.row.e_at }
      : { actor: '', source: '', run: null, at: '' },
  };
}

/** Retires every claim of a fact the reader can see ([K6]); returns the fact as it is now. */
export function retireFact(db: Db, scopes: readonly string[], id: string): Fact {
  const faceId = id.split('.')[0] ?? '';
  return writeTx(db, () => {
    const fact = entityFacts(db, scopes, faceId, { history: true }).find((f) => f.id === id);
    if (!fact) throw new AppError('not-found', `No fact with id ${id}.`);
    const now = new Date().toISOString();
    const rows = stmt(
      db,
      "SELECT id, props FROM edges WHERE to_id = ? AND type = 'FACT' AND retired_at IS NULL",
    ).all(faceId) as { id: string; props: string | null }[];
    const live = rows.filter((r) => {
      const claim = parseClaim(r.props);
      return claim !== null && factId(faceId, claim.attribute, claim.statement) === id;
    });
    // Every claim retired already: retiring it again would change nothing, and must not look like it
    // did. A fact retired only because a newer one replaced it, or its sources went, still has live
    // claims: retiring those keeps it from coming back ([K4], [K8]).
    if (live.length === 0) {
      const said = fact.statement.length > 80 ? `${fact.statement.slice(0, 79)}…` : fact.statement;
      throw new AppError('conflict', `Fact ${id} ("${said}") was retired already: nothing changed.`);
    }
    const retire = stmt(db, 'UPDATE edges SET retired_at = ? WHERE id = ?');
    for (const r of live) retire.run(now, r.id);
    const after = entityFacts(db, scopes, faceId, { history: true }).find((f) => f.id === id);
    if (!after) throw new Error(`the fact ${id} left its page`);
    return after;
  });
}
