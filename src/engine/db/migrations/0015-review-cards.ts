/**
 * Review cards in the inbox (docs/FACTS.md [K12], [K13]).
 * - review_cards: a Possible duplicate card (kind 'duplicate') written by the compile pass, keyed
 *   by its source and the normalised name (`subject`), with the held facts in `payload`; at most
 *   one pending card per (source, subject). A dismissed Empty page (kind 'empty-page') is a row
 *   too: `source_id` is the entity and `subject` the time of its latest claim change, so a page that
 *   empties again later shows again.
 * The Empty page query needs no index of its own: it reads the entity faces by items_kind_scope
 * and each face's claims by edges_to (src/engine/knowledge/empty-pages.ts).
 */
export const sql = `
CREATE TABLE review_cards (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('duplicate', 'empty-page')),
  source_id TEXT NOT NULL,
  subject TEXT NOT NULL,
  payload TEXT NOT NULL DEFAULT '{}',
  state TEXT NOT NULL CHECK (state IN ('pending', 'resolved', 'dismissed')),
  decision TEXT,
  decided_by TEXT,
  decided_at TEXT,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX review_cards_pending ON review_cards (kind, source_id, subject) WHERE state = 'pending';
CREATE INDEX review_cards_source ON review_cards (kind, source_id, subject);
CREATE INDEX review_cards_state ON review_cards (state, kind, created_at);
`;
