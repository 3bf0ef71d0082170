/**
 * What a device holds after its own pushes (docs/SYNC_SPEC.md [S11], [S34]): an accepted op that
 * won is held by the device that pushed it, so eviction reaches it even when the device never
 * pulled it back; a refused op marks the device's holding `stale`, so the next pull in which the
 * user may see the id sends the server's winning op again (the replica dropped its own version);
 * a page not acknowledged marks them stale again (`pull_pages.unstaled`, [S19]).
 */
export const migration = {
  id: '0005-holdings-stale',
  sql: `
ALTER TABLE device_holdings ADD COLUMN stale BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX device_holdings_stale ON device_holdings (device_id) WHERE stale;
ALTER TABLE pull_pages ADD COLUMN unstaled TEXT NOT NULL DEFAULT '[]';
`,
};
