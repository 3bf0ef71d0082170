import { defineConfig } from 'vitest/config';

/** The suite that runs the engine over ../shared/fixtures and ../shared/corpus. */
export default defineConfig({
  test: {
    include: ['test/fixtures-suite/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
