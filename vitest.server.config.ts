import { defineConfig } from 'vitest/config';

/** The workspace server suite: PGlite and (when installed) a throwaway PostgreSQL. */
export default defineConfig({
  test: {
    include: ['test/server/**/*.test.ts', 'src/server/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Files wait on PostgreSQL and child processes as much as on CPU: run a few at once.
    maxWorkers: 3,
  },
});
