/**
 * Empty pages (docs/FACTS.md [K13]): an entity face with at least one claim and no current fact,
 * derived from the claims each time the inbox is read, never stored. A person may dismiss one; the
 * dismissal is kept with the time of the face's latest claim change, so a page that gets a claim
 * and empties again later is shown again. One query finds them all: the reader's entity faces
 * (index items_kind_scope) and each one's claims (index edges_to), then each candidate is checked
 * against its page as facts.ts derives it. That check is the costly part, and the inbox's count is
 * read on every badge refresh: the list is kept per connection and reader, keyed by the database's
 * change counter (this connection's writes and every other connection's commits), so it is derived
 * again only after something was written.
 */
import { randomUUID } from 'node:crypto';

import type { EmptyPageCardView, ResolvedCard } from '#shared/api/ops/inbox.ts';
import { AppError } from '#shared/errors.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import { getRow } from '../read/items.ts';
import { assertCanWrite, canSee } from '../scope.ts';
import { logEvent } from '../telemetry.ts';
import { entityFacts } from './facts.ts';
import { liveSectionsSql } from './quote-sections.ts';
import { type CardDecider, type CardReader, mayWrite } from './review-cards.ts';

type EmptyRow = {
  id: string;
  label: string;
  kind: string;
  scope: string;
  changed_at: string;
  claims: number;
  removed: number;
  retired: number;
};

/**
 * The faces the reader sees with claims they see and none that supports its fact ([K3], [K17]): a
 * claim supports while it is not retired and its source still says the quoted words, or, for a
 * section a new version retired, a live section of the same file does. The latest change of a
 * claim (stated, retired, its source removed or changed) keys a dismissal. `@face` narrows it to
 * one face (or '' for all).
 */
const EMPTY = `
  WITH c AS (
    SELECT e.to_id AS face, e.origin_at AS stated, e.retired_at AS er, s.retired_at AS sr,
      s.updated_at AS su, s.body, s.storage_kind AS sk, s.file_id,
      -- Removed: the source itself, or the file of a section (a section a new version replaced is not).
      (s.retired_at IS NOT NULL AND (s.storage_kind <> 'section' OR fl.retired_at IS NOT NULL OR fl.id IS NULL)) AS gone,
      coalesce(CASE WHEN json_valid(e.props) THEN json_extract(e.props, '$.quote') END, '') AS q
    FROM edges e JOIN items s ON s.id = e.from_id LEFT JOIN items fl ON fl.id = s.file_id
    WHERE e.type = 'FACT' AND (@face = '' OR e.to_id = @face)
      AND s.scope IN (SELECT value FROM json_each(@scopes))
  ), faces AS (
    SELECT f.id, f.label, f.kind, f.scope,
      max(max(c.stated, coalesce(c.er, ''), coalesce(c.su, ''))) AS changed_at,
      count(*) AS claims,
      sum(c.er IS NULL AND c.gone) AS removed,
      sum(c.er IS NOT NULL) AS retired
    FROM c JOIN items f ON f.id = c.face
    WHERE f.storage_kind = 'entity' AND f.retired_at IS NULL AND f.scope IN (SELECT value FROM json_each(@scopes))
    GROUP BY f.id
    HAVING sum(c.er IS NULL AND (
      (c.sr IS NULL AND (c.q = '' OR c.body = '' OR instr(c.body, c.q) > 0))
      OR (c.sr IS NOT NULL AND c.sk = 'section' AND c.q <> '' AND EXISTS (
        ${liveSectionsSql('c.file_id', 'c.q')} AND qs.scope IN (SELECT value FROM json_each(@scopes))))
    )) = 0
  )
  SELECT * FROM faces WHERE NOT EXISTS (
    SELECT 1 FROM review_cards d WHERE d.kind = 'empty-page' AND d.source_id = faces.id AND d.subject = faces.changed_at
  ) ORDER BY changed_at DESC, id`;

/**
 * The reader's undismissed empty pages, the most recently emptied first. Each is checked against
 * the page as facts.ts derives it, so the query can never show a page that has a current fact.
 */
function emptyRows(db: Db, scopes: readonly string[], face = ''): EmptyRow[] {
  const rows = stmt(db, EMPTY).all({ scopes: JSON.stringify(scopes), face }) as EmptyRow[];
  return rows.filter((r) => entityFacts(db, scopes, r.id).length === 0);
}

type Derived = { key: string; rows: EmptyRow[] };

const derived = new WeakMap<Db, Map<string, Derived>>();

/**
 * What has been written to the database, as one key: `data_version` moves when another connection
 * commits, `total_changes()` counts this connection's inserts, updates and deletes (triggers
 * included, rolled back ones too: a spare derivation, never a stale one).
 */
function changeKey(db: Db): string {
  const version = db.pragma('data_version', { simple: true }) as number;
  const own = (stmt(db, 'SELECT total_changes() AS n').get() as { n: number }).n;
  return `${version}:${own}`;
}

/** Every empty page of the reader, derived again only when the database changed since. */
function allEmptyRows(db: Db, scopes: readonly string[]): EmptyRow[] {
  let byReader = derived.get(db);
  if (!byReader) {
    byReader = new Map();
    derived.set(db, byReader);
  }
  const reader = JSON.stringify(scopes);
  const key = changeKey(db);
  const hit = byReader.get(reader);
  if (hit?.key === key) return hit.rows;
  const rows = emptyRows(db, scopes);
  byReader.set(reader, { key, rows });
  return rows;
}

/** A page of the reader's undismissed empty pages, and how many there are in all. */
export function listEmptyPages(
  db: Db,
  reader: CardReader,
  page: { offset: number; limit: number },
): { total: number; cards: EmptyPageCardView[] } {
  const rows = allEmptyRows(db, reader.scopes);
  return {
    total: rows.length,
    cards: rows.slice(page.offset, page.offset + page.limit).map((r) => toView(db, reader, r)),
  };
}

const SOURCES_SHOWN = 5;

/** The removed sources of a face's claims that the reader sees, a section as its file. */
function removedSources(db: Db, scopes: readonly string[], faceId: string): { id: string; label: string }[] {
  const rows = stmt(
    db,
    `SELECT DISTINCT coalesce(file.id, s.id) AS id, coalesce(file.label, s.label) AS label, s.scope AS scope
     FROM edges e JOIN items s ON s.id = e.from_id LEFT JOIN items file ON file.id = s.file_id
     WHERE e.to_id = ? AND e.type = 'FACT' AND e.retired_at IS NULL AND s.retired_at IS NOT NULL
       AND (s.storage_kind <> 'section' OR file.id IS NULL OR file.retired_at IS NOT NULL)
     ORDER BY coalesce(file.retired_at, s.retired_at) DESC, id`,
  ).all(faceId) as { id: string; label: string; scope: string }[];
  return rows
    .filter((r) => canSee(scopes, r.scope))
    .slice(0, SOURCES_SHOWN)
    .map((r) => ({ id: r.id, label: r.label }));
}

type Reason = EmptyPageCardView['reason'];

/** Why no claim supports: sources removed, claims retired, or sources that no longer say the words. */
function reasonOf(r: EmptyRow): Reason {
  const changed = r.claims - r.removed - r.retired;
  const causes = [r.removed > 0, r.retired > 0, changed > 0].filter(Boolean).length;
  if (causes > 1) return 'mixed';
  return r.removed > 0 ? 'sources-removed' : r.retired > 0 ? 'facts-retired' : 'sources-changed';
}

function why(r: EmptyRow, reason: Reason, sources: { label: string }[]): string {
  const names = sources.map((s) => s.label).join(', ');
  if (reason === 'sources-removed')
    return `Its last ${sources.length === 1 ? 'source was' : 'sources were'} removed: ${names}.`;
  if (reason === 'facts-retired') return `Its facts were retired: no fact of ${r.label} is current.`;
  if (reason === 'sources-changed') return 'Its sources no longer say what its facts quoted.';
  return `Its facts lost their sources: retired, removed${names ? ` (${names})` : ''} or changed.`;
}

function toView(db: Db, reader: CardReader, r: EmptyRow): EmptyPageCardView {
  const sources = removedSources(db, reader.scopes, r.id);
  const reason = reasonOf(r);
  return {
    kind: 'empty-page',
    id: `empty:${r.id}@${r.changed_at}`,
    entity: { id: r.id, label: r.label, storageKind: 'entity', kind: r.kind, scope: r.scope },
    reason,
    why: why(r, reason, sources),
    sources,
    claims: r.claims,
    changedAt: r.changed_at,
    // Dismissing is a decision on the page: for those who may write its scope, as duplicates are.
    canResolve: mayWrite(db, reader.user, r.scope),
  };
}

/** `empty:<entity>@<changed at>` as toView makes it; null for any other text. */
export function parseEmptyCardId(id: string): { entity: string; changedAt: string } | null {
  const m = /^empty:([^@\s]+)@(\S+)$/.exec(id);
  return m ? { entity: m[1] as string, changedAt: m[2] as string } : null;
}

/**
 * Dismisses an empty page ([K13]) as the reader saw it: when it changed since (a claim was stated
 * or retired), the card is not the one they saw and nothing is written.
 */
export function dismissEmptyPage(db: Db, d: CardDecider, cardId: string, action: string): ResolvedCard {
  const key = parseEmptyCardId(cardId);
  if (!key) throw new AppError('not-found', `No review card ${cardId}.`);
  if (action !== 'dismiss')
    throw new AppError(
      'validation-failed',
      `An empty page is opened or dismissed, not resolved with "${action}".`,
    );
  return writeTx(db, () => {
    const face = getRow(db, key.entity);
    if (face?.storage_kind !== 'entity' || !canSee(d.scopes, face.scope))
      throw new AppError('not-found', `No review card ${cardId}.`);
    assertCanWrite(db, d.user, face.scope);
    const now = emptyRows(db, d.scopes, face.id)[0];
    if (now?.changed_at !== key.changedAt)
      throw new AppError(
        'conflict',
        now
          ? `${face.label}'s page changed since this card was shown: look at the inbox again.`
          : `${face.label}'s page is not an empty page to review any more (it has a current fact, or was dismissed).`,
      );
    const at = new Date().toISOString();
    stmt(
      db,
      `INSERT INTO review_cards (id, kind, source_id, subject, payload, state, decision, decided_by, decided_at, created_at)
       VALUES (?, 'empty-page', ?, ?, '{}', 'dismissed', 'dismiss', ?, ?, ?)`,
    ).run(`rc_${randomUUID().replaceAll('-', '').slice(0, 20)}`, face.id, key.changedAt, d.user, at, at);
    logEvent(db, d.surface, d.user, 'inbox.card', {
      card: cardId,
      kind: 'empty-page',
      decision: 'dismiss',
      entity: face.id,
      summary: `dismissed the empty page ${face.label.slice(0, 60)}`,
    });
    return {
      card: cardId,
      kind: 'empty-page',
      action: 'dismiss',
      state: 'dismissed',
      entity: null,
      facts: [],
    };
  });
}
