/**
 * The vector generation is random from now on (src/engine/read/items.ts `bumpVectorGeneration`):
 * a mirror file that names the database's generation is taken whole (src/engine/search/mirror-file.ts,
 * [R9] in docs/RETRIEVAL.md), so a database must not hold a count that an older copy of it could
 * reach again. One that holds a count gets a random generation now; no mirror file names one yet.
 */
export const sql = `
INSERT INTO meta (key, value) VALUES ('vec_generation', 'g' || lower(hex(randomblob(8))))
  ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE value NOT LIKE 'g%';
`;
