/**
 * Possible duplicate cards (docs/FACTS.md [K12]): when the compile pass cannot tell whether a name
 * in a source is an entity it already knows, it holds that entity's facts on a card instead of
 * guessing; a person who can write the source's scope resolves it (duplicate-decide.ts). Nothing
 * is stated until then. Here: adding a card, and reading cards as a member sees them.
 */
import { randomUUID } from 'node:crypto';

import type { DuplicateCardView } from '#shared/api/ops/inbox.ts';
import { AppError } from '#shared/errors.ts';
import { type Db, stmt } from '../db/driver.ts';
import { getRow, type ItemRow } from '../read/items.ts';
import { assertCanWrite, canSee } from '../scope.ts';
import type { Surface } from '../telemetry.ts';
import { type EntityKind, type ItemView, normaliseName, type Origin } from './graph.ts';

export type DuplicateCardInput = {
  source: string; // the compiled source item id
  sourceVersion: number;
  name: string; // the entity as the source names it
  kind: EntityKind; // from src/engine/knowledge/graph.ts
  candidates: { id: string; label: string; score: number }[]; // faces it may be (already scope-filtered)
  facts: { statement: string; attribute: string | null; validAt: string | null; quote: string }[];
  origin: Origin; // from graph.ts
};

/**
 * What a duplicate card keeps in its payload column: the input less the source (a column), and the
 * source's scope when the card was made, so a card whose source is gone still shows only to readers
 * of that scope.
 */
export type DuplicatePayload = Omit<DuplicateCardInput, 'source'> & { scope: string };

export type CardRow = {
  id: string;
  kind: 'duplicate' | 'empty-page';
  source_id: string;
  subject: string;
  payload: string;
  state: 'pending' | 'resolved' | 'dismissed';
  decision: string | null;
  decided_by: string | null;
  decided_at: string | null;
  created_at: string;
};

function checkInput(input: DuplicateCardInput): string {
  const name = input.name.trim();
  const subject = normaliseName(name, input.kind);
  if (!subject)
    throw new AppError('validation-failed', `"${input.name}" has no letters or digits to name an entity.`);
  if (!Number.isInteger(input.sourceVersion) || input.sourceVersion < 1)
    throw new AppError('validation-failed', `sourceVersion ${input.sourceVersion} is not a version number.`);
  for (const f of input.facts) {
    if (!f.statement.trim())
      throw new AppError('validation-failed', `A fact held for "${name}" has no statement.`);
    if (!f.quote.trim())
      throw new AppError('validation-failed', `The fact "${f.statement}" held for "${name}" has no quote.`);
  }
  return subject;
}

function payloadOf(input: DuplicateCardInput, scope: string): string {
  const payload: DuplicatePayload = {
    scope,
    sourceVersion: input.sourceVersion,
    name: input.name.trim(),
    kind: input.kind,
    candidates: input.candidates.map((c) => ({ id: c.id, label: c.label, score: c.score })),
    facts: input.facts.map((f) => ({
      statement: f.statement,
      attribute: f.attribute,
      validAt: f.validAt,
      quote: f.quote,
    })),
    origin: { actor: input.origin.actor, source: input.origin.source, run: input.origin.run },
  };
  return JSON.stringify(payload);
}

/**
 * Idempotent per (source, normalised name) while pending; returns the card id. Runs inside the caller's tx.
 *
 * A pending card of the same source and name is kept (its id returned); when the call holds other
 * facts or candidates (a newer compile of the source) the card takes them. A card a person already
 * decided for this very version of the source is not asked again ([K12]).
 */
export function addDuplicateCard(db: Db, workspaceId: string, input: DuplicateCardInput): string {
  const subject = checkInput(input);
  const source = getRow(db, input.source);
  if (!source || source.workspace_id !== workspaceId)
    throw new AppError('not-found', `No item with id ${input.source}.`);
  if (source.storage_kind === 'entity')
    throw new AppError(
      'validation-failed',
      `${source.id} is an entity: a card's source is a file, section or note.`,
    );
  const payload = payloadOf(input, source.scope);
  return db.transaction(() => {
    const rows = stmt(
      db,
      `SELECT * FROM review_cards WHERE kind = 'duplicate' AND source_id = ? AND subject = ?
       ORDER BY created_at DESC, rowid DESC`,
    ).all(source.id, subject) as CardRow[];
    const pending = rows.find((r) => r.state === 'pending');
    if (pending) {
      if (pending.payload !== payload)
        stmt(db, 'UPDATE review_cards SET payload = ? WHERE id = ?').run(payload, pending.id);
      return pending.id;
    }
    const decided = rows.find((r) => versionOf(r) === input.sourceVersion);
    if (decided) return decided.id;
    const id = `rc_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
    stmt(
      db,
      `INSERT INTO review_cards (id, kind, source_id, subject, payload, state, created_at)
       VALUES (?, 'duplicate', ?, ?, ?, 'pending', ?)`,
    ).run(id, source.id, subject, payload, new Date().toISOString());
    return id;
  })();
}

function parsePayload(row: CardRow): DuplicatePayload | null {
  try {
    const p = JSON.parse(row.payload) as Partial<DuplicatePayload>;
    if (typeof p.sourceVersion !== 'number' || typeof p.name !== 'string' || !Array.isArray(p.facts))
      return null;
    return {
      scope: typeof p.scope === 'string' ? p.scope : 'org',
      sourceVersion: p.sourceVersion,
      name: p.name,
      kind: (p.kind ?? 'other') as EntityKind,
      candidates: Array.isArray(p.candidates) ? p.candidates : [],
      facts: p.facts,
      origin: p.origin ?? { actor: '', source: 'compile', run: null },
    };
  } catch {
    return null;
  }
}

function versionOf(row: CardRow): number | null {
  return parsePayload(row)?.sourceVersion ?? null;
}

// ---- reading ----

/** Who looks at or decides cards: the member, the scopes they read, where they act from. */
export type CardReader = { user: string; scopes: readonly string[] };
export type CardDecider = CardReader & { workspaceId: string; origin: Origin; surface: Surface };

export type Loaded = { row: CardRow; payload: DuplicatePayload; source: ItemRow | undefined; scope: string };

export function load(db: Db, row: CardRow): Loaded | null {
  const payload = parsePayload(row);
  if (!payload) return null;
  const source = getRow(db, row.source_id);
  return { row, payload, source, scope: source?.scope ?? payload.scope };
}

/** Why a card can only be dismissed ([K12]): its source is gone, removed, or another version now. */
export function staleness(card: Loaded): string | null {
  const { source, payload } = card;
  if (!source) return 'its source is no longer in the workspace';
  if (source.retired_at !== null) return `its source ${source.label} was removed`;
  if (source.version !== payload.sourceVersion)
    return `its source ${source.label} changed since (version ${source.version} now, the card is for version ${payload.sourceVersion})`;
  return null;
}

export function mayWrite(db: Db, user: string, scope: string): boolean {
  try {
    assertCanWrite(db, user, scope);
    return true;
  } catch {
    return false;
  }
}

/** The card's candidates the reader can see, as they are now: hidden or retired faces are left out. */
export function visibleCandidates(db: Db, scopes: readonly string[], payload: DuplicatePayload) {
  return payload.candidates.flatMap((c) => {
    const face = getRow(db, c.id);
    if (face?.storage_kind !== 'entity' || face.retired_at !== null || !canSee(scopes, face.scope)) return [];
    return [{ id: face.id, label: face.label, scope: face.scope, score: c.score }];
  });
}

export function itemView(row: ItemRow): ItemView {
  return { id: row.id, label: row.label, storageKind: row.storage_kind, kind: row.kind, scope: row.scope };
}

function toView(db: Db, reader: CardReader, card: Loaded): DuplicateCardView {
  const { row, payload, source } = card;
  return {
    kind: 'duplicate',
    id: row.id,
    source: source ? itemView(source) : null,
    scope: card.scope,
    name: payload.name,
    entityKind: payload.kind,
    candidates: visibleCandidates(db, reader.scopes, payload),
    facts: payload.facts.map((f) => ({
      statement: f.statement,
      attribute: f.attribute ?? null,
      validAt: f.validAt ?? null,
      quote: f.quote,
    })),
    state: row.state,
    stale: row.state === 'pending' ? staleness(card) : null,
    canResolve: row.state === 'pending' && mayWrite(db, reader.user, card.scope),
    decision: row.decision,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at,
    createdAt: row.created_at,
  };
}

const VISIBLE = `FROM review_cards c LEFT JOIN items s ON s.id = c.source_id
  WHERE c.kind = 'duplicate' AND (@all = 1 OR c.state = 'pending')
    AND COALESCE(s.scope, json_extract(c.payload, '$.scope'), 'org') IN (SELECT value FROM json_each(@scopes))`;

/** How many duplicate cards the reader sees (pending ones, or every one with `all`). */
export function countDuplicateCards(db: Db, reader: CardReader, options: { all?: boolean } = {}): number {
  const args = { all: options.all ? 1 : 0, scopes: JSON.stringify(reader.scopes) };
  return (stmt(db, `SELECT count(*) AS n ${VISIBLE}`).get(args) as { n: number }).n;
}

/** The reader's duplicate cards, oldest first: only cards whose source's scope they read ([K12]). */
export function listDuplicateCards(
  db: Db,
  reader: CardReader,
  page: { all?: boolean; offset: number; limit: number },
): DuplicateCardView[] {
  const rows = stmt(
    db,
    `SELECT c.* ${VISIBLE} ORDER BY c.created_at, c.rowid LIMIT @limit OFFSET @offset`,
  ).all({
    all: page.all ? 1 : 0,
    scopes: JSON.stringify(reader.scopes),
    limit: page.limit,
    offset: page.offset,
  }) as CardRow[];
  return rows.flatMap((r) => {
    const card = load(db, r);
    return card ? [toView(db, reader, card)] : [];
  });
}
