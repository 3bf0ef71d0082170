/**
 * The claim on a source's compile pass (docs/FACTS.md [K11]): compile_claims holds a row while one
 * process compiles the source, named by that claim's token (`owner`) with a lease that its
 * heartbeat renews (src/engine/jobs/jobs-lease.ts). Another process (a host and `brain compile` on
 * one workspace) that finds a live row skips the source; a row whose lease ran out (its process was
 * killed) is taken over. The row is deleted on every outcome. Local to this replica, like
 * compile_passes.
 */
export const sql = `
CREATE TABLE compile_claims (
  source_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  lease_until INTEGER NOT NULL,
  started_at TEXT NOT NULL
);
`;
