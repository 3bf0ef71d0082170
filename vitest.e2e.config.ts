import { defineConfig } from 'vitest/config';

/** End-to-end tests: Chromium (playwright-core) against `brain serve`, one fresh data folder per test. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
