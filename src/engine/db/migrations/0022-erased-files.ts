/**
 * What this replica erased, by content (docs/FACTS.md [K14]): a file or note an erase deleted
 * keeps its id and the hash of what it held (a file's bytes, a note's body), nothing else, so the
 * same content is not added back under that id: a watched folder would otherwise bring an erased
 * file back on its next look, as the workspace server refuses it (docs/SYNC_SPEC.md [S36]).
 */
export const sql = `
CREATE TABLE erased_content (
  id TEXT PRIMARY KEY,
  content TEXT NOT NULL,
  erased_at TEXT NOT NULL
);
`;
