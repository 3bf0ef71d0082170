/**
 * Deciding a Possible duplicate card (docs/FACTS.md [K12]): Same as a candidate, a New page, or
 * Dismiss, in one transaction, by a member who can write the source's scope. The card and its
 * reading rules are in review-cards.ts.
 */
import type { ResolvedCard } from '#shared/api/ops/inbox.ts';
import { AppError } from '#shared/errors.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import { getRow, type ItemRow } from '../read/items.ts';
import { assertCanWrite, canSee } from '../scope.ts';
import { logEvent } from '../telemetry.ts';
import { stateFact } from './facts.ts';
import {
  type EntityKind,
  entityAliases,
  findOrCreateEntity,
  type ItemView,
  linkFaces,
  normaliseName,
  type Origin,
} from './graph.ts';
import { liveSectionsSaying } from './quote-sections.ts';
import {
  type CardDecider,
  type CardRow,
  itemView,
  type Loaded,
  load,
  staleness,
  visibleCandidates,
} from './review-cards.ts';

/**
 * The piece whose text holds the quote, as the compile pass cites it ([K9]): the file's live section
 * that says it, else the source itself (a note, or a file without such a section).
 */
function citedItem(db: Db, source: ItemRow, quote: string): string {
  const [section] = liveSectionsSaying(db, source.id, quote);
  if (section) return section.id;
  if (source.body.includes(quote)) return source.id;
  throw new AppError(
    'validation-failed',
    `The quote "${quote.slice(0, 80)}" is not in ${source.label} any more.`,
  );
}

function pendingCard(db: Db, d: CardDecider, id: string): Loaded {
  const row = stmt(db, "SELECT * FROM review_cards WHERE id = ? AND kind = 'duplicate'").get(id) as
    | CardRow
    | undefined;
  const card = row ? load(db, row) : null;
  // A card of a scope the reader cannot see does not exist for them ([K12]).
  if (!card || !canSee(d.scopes, card.scope)) throw new AppError('not-found', `No review card ${id}.`);
  if (card.row.state !== 'pending')
    throw new AppError('conflict', `Review card ${id} is ${card.row.state} already.`);
  assertCanWrite(db, d.user, card.scope);
  return card;
}

/** States the card's facts on the candidate (same) or on a page of the card's name (new). */
function stateHeld(
  db: Db,
  d: CardDecider,
  card: Loaded,
  target: { id: string } | null,
): { entity: ItemView; facts: string[] } {
  const source = card.source as ItemRow;
  const { payload } = card;
  // Written by the person who decided, as the pass that found them: a later compile of the source
  // diffs them like its own claims ([K12]).
  const origin: Origin = { actor: d.origin.actor, source: payload.origin.source, run: payload.origin.run };
  const facts: string[] = [];
  let entity: ItemView | null = null;
  for (const f of payload.facts) {
    const out = stateFact(
      db,
      d.workspaceId,
      d.scopes,
      {
        entity: target?.id ?? payload.name,
        kind: payload.kind,
        statement: f.statement,
        attribute: f.attribute,
        validAt: f.validAt,
        citation: { item: citedItem(db, source, f.quote), quote: f.quote },
      },
      origin,
    );
    facts.push(out.fact.id);
    entity = out.entity;
  }
  const now = new Date().toISOString();
  const face = entity
    ? (getRow(db, entity.id) as ItemRow)
    : faceWithoutFacts(db, d, card, target, origin, now);
  // The source's name becomes an alias of the page (findOrCreateEntity keeps every name used, [K12]).
  if (!entityAliases(face).includes(payload.name)) {
    const normalised = face.canonical_value ?? normaliseName(face.label, payload.kind);
    const kind = (face.canonical_type ?? payload.kind) as EntityKind;
    findOrCreateEntity(
      db,
      d.workspaceId,
      { name: payload.name, kind, normalised, scope: face.scope },
      origin,
      now,
    );
  }
  return { entity: itemView(getRow(db, face.id) as ItemRow), facts };
}

/** A card that holds no fact still names the page: the candidate itself, or a new face of the name. */
function faceWithoutFacts(
  db: Db,
  d: CardDecider,
  card: Loaded,
  target: { id: string } | null,
  origin: Origin,
  now: string,
): ItemRow {
  if (target) return getRow(db, target.id) as ItemRow;
  const { name, kind } = card.payload;
  const made = findOrCreateEntity(
    db,
    d.workspaceId,
    { name, kind, normalised: normaliseName(name, kind), scope: card.scope },
    origin,
    now,
  );
  if (made.created) linkFaces(db, made.row, origin, now);
  return made.row;
}

function chooseCandidate(db: Db, d: CardDecider, card: Loaded, entity: string | undefined): { id: string } {
  const candidates = visibleCandidates(db, d.scopes, card.payload);
  const chosen = entity ? candidates.find((c) => c.id === entity) : candidates[0];
  if (!chosen)
    throw new AppError(
      'validation-failed',
      entity
        ? `${entity} is not a candidate of review card ${card.row.id}: choose one of its candidates, or a new page.`
        : `Review card ${card.row.id} has no candidate you can see: make a new page, or dismiss it.`,
    );
  return chosen;
}

/**
 * Decides a Possible duplicate card ([K12]): `same` states every held fact on the chosen
 * candidate (the face in the source's scope), `new` on a page of the card's name and kind in the
 * source's scope, `dismiss` writes nothing but the decision. A stale card can only be dismissed.
 */
export function resolveDuplicateCard(
  db: Db,
  d: CardDecider,
  input: { card: string; action: 'same' | 'new' | 'dismiss'; entity?: string },
): ResolvedCard {
  // resolveReviewCard (review-inbox.ts), its one caller, has refused an entity without "same".
  return writeTx(db, () => {
    const card = pendingCard(db, d, input.card);
    let written: { entity: ItemView | null; facts: string[] } = { entity: null, facts: [] };
    if (input.action !== 'dismiss') {
      const stale = staleness(card);
      if (stale)
        throw new AppError('conflict', `Review card ${card.row.id} can only be dismissed: ${stale}.`);
      const target = input.action === 'same' ? chooseCandidate(db, d, card, input.entity) : null;
      written = stateHeld(db, d, card, target);
    }
    const state = input.action === 'dismiss' ? 'dismissed' : 'resolved';
    const decision = written.entity ? `${input.action}:${written.entity.id}` : input.action;
    const now = new Date().toISOString();
    stmt(
      db,
      'UPDATE review_cards SET state = ?, decision = ?, decided_by = ?, decided_at = ? WHERE id = ?',
    ).run(state, decision, d.user, now, card.row.id);
    logEvent(db, d.surface, d.user, 'inbox.card', {
      card: card.row.id,
      kind: 'duplicate',
      decision: input.action,
      source: card.row.source_id,
      entity: written.entity?.id ?? null,
      facts: written.facts.length,
      summary: summaryOf(card, input.action, written),
    });
    return { card: card.row.id, kind: 'duplicate', action: input.action, state, ...written };
  });
}

function summaryOf(
  card: Loaded,
  action: string,
  written: { entity: ItemView | null; facts: string[] },
): string {
  const name = `"${card.payload.name.slice(0, 60)}"`;
  if (action === 'dismiss') return `dismissed the possible duplicate ${name}`;
  const n = written.facts.length;
  const where = action === 'same' ? `same as ${written.entity?.label}` : 'a new page';
  return `possible duplicate ${name}: ${where}, ${n} fact${n === 1 ? '' : 's'} stated`;
}
