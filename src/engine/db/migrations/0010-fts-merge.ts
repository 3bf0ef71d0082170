/**
 * FTS5 merges its index segments less eagerly: 16 segments of a level before they are merged into
 * the next (the default is 4). Indexing writes one segment per file (one transaction per file),
 * and with the default most of the full-text work was merging those segments again and again.
 * Measured on 30 MB of generated Markdown (51,207 sections, bench/indexing.ts): the index phase
 * 4.0 s -> 3.6 s; whole searches on that workspace p50 6.6 -> 7.0 ms, p95 unchanged (23 ms).
 * The setting is stored in the FTS table's own config, so every process that opens it uses it.
 */
export const sql = `
INSERT INTO items_fts (items_fts, rank) VALUES ('automerge', 16);
`;
