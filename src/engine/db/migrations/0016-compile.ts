/**
 * The compile pass with a chat model (docs/FACTS.md [K9]–[K11]).
 * - compile_passes: the last compile of each source (a file or a note): the version and content
 *   hash it read, the model, whether it was done or failed (and why), and what it wrote (facts
 *   stated or kept, entities they are about, Possible duplicate cards). A source whose content hash
 *   equals its last done pass is not compiled again unless asked ([K9]). Local to this replica,
 *   like audit_passes: the claims it writes travel as edges ([K7]).
 */
export const sql = `
CREATE TABLE compile_passes (
  source_id TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  content_hash TEXT NOT NULL,
  model TEXT,
  state TEXT NOT NULL CHECK (state IN ('done', 'failed')),
  facts INTEGER NOT NULL DEFAULT 0,
  entities INTEGER NOT NULL DEFAULT 0,
  cards INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  at TEXT NOT NULL
);
`;
