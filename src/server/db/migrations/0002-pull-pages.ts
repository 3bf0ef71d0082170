/**
 * The last page answered to each device and not yet acknowledged ([S19] in docs/SYNC_SPEC.md):
 * the ids it evicted from and added to `device_holdings` (JSON arrays of text), the `after` it
 * was asked for and the `cursor` it answered, so a page the replica never committed can be undone
 * and sent again. A page that changed no holdings is not recorded.
 */
export const migration = {
  id: '0002-pull-pages',
  sql: `
CREATE TABLE pull_pages (
  device_id TEXT PRIMARY KEY,
  page_id TEXT NOT NULL,
  evicted TEXT NOT NULL,
  held TEXT NOT NULL,
  after_seq BIGINT NOT NULL,
  cursor_seq BIGINT NOT NULL
);
`,
};
