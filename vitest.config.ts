import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/fixtures-suite/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // `npm test` runs both: the node suites above, and the renderer's component tests in a DOM.
    projects: [{ extends: true, test: { name: 'node' } }, './vitest.components.config.ts'],
  },
});
