/**
 * A narrow covering index for the keyword streams: every FTS5 match is checked against its item's
 * storage kind, scope, indexed flag and retirement before ranking. Read from the table itself,
 * that is a random read of a whole (large) row per match; this index keeps those five columns
 * together, about 40 bytes a row, so the check stays in cache.
 */
export const sql = `
CREATE INDEX items_search ON items (rowid, storage_kind, scope, indexed, retired_at);
`;
