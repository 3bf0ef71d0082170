import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * The renderer's component tests: the real components in happy-dom, with a fake transport standing in
 * for the engine (src/renderer/src/test/fake-transport.ts). Part of `npm test` through vitest.config.ts.
 */
export default defineConfig({
  plugins: [react()],
  test: {
    name: 'components',
    include: ['src/renderer/**/*.test.tsx'],
    environment: 'happy-dom',
    setupFiles: ['src/renderer/src/test/setup.ts'],
    testTimeout: 30_000,
    pool: 'forks',
  },
});
