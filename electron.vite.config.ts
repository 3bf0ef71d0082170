import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY } from './src/main/security.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/** Native or heavy packages that must stay in node_modules and load at run time in main. */
const NATIVE_DEPS = ['better-sqlite3', 'sqlite-vec', 'onnxruntime-node', '@huggingface/transformers'];
const nativeExternal = NATIVE_DEPS.map(
  (name) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?:/.*)?$`),
);

/**
 * index.html must carry exactly the CSP that main sends as a header. The build fails if they drift; the
 * dev server (which needs inline scripts for React Fast Refresh) gets the relaxed development policy.
 */
function contentSecurityPolicy(): Plugin {
  const meta = `content="${CONTENT_SECURITY_POLICY}"`;
  return {
    name: 'org-brain:csp',
    transformIndexHtml: {
      order: 'pre',
      handler(html, ctx) {
        if (!html.includes(meta)) {
          throw new Error('src/renderer/index.html must contain the CSP meta tag from src/main/security.ts.');
        }
        return ctx.server ? html.replace(meta, `content="${DEV_CONTENT_SECURITY_POLICY}"`) : html;
      },
    },
  };
}

export default defineConfig({
  main: {
    build: {
      externalizeDeps: true,
      rolldownOptions: {
        // The engine process and the worker threads are entries of their own, emitted beside
        // index.js under fixed names (src/engine/processes/worker.ts finds them there).
        input: {
          index: resolve(root, 'src/main/index.ts'),
          'engine-host': resolve(root, 'src/engine/processes/engine-host.ts'),
          'extract-worker': resolve(root, 'src/engine/processes/extract-worker.ts'),
          'embed-worker': resolve(root, 'src/engine/processes/embed-worker.ts'),
          'download-worker': resolve(root, 'src/engine/processes/download-worker.ts'),
          'vector-worker': resolve(root, 'src/engine/processes/vector-worker.ts'),
          // The `brain` command line of an installed app (resources/bin/brain runs it with the
          // app's own Electron as Node: docs/PACKAGING.md [N7]).
          cli: resolve(root, 'src/cli/index.ts'),
        },
        // Chunks sit beside the entries: src/engine/processes/worker.ts finds worker entries next to itself.
        output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
        external: nativeExternal,
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload can only require('electron'): bundle everything else into one CJS file.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(root, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src/renderer'),
    plugins: [react(), contentSecurityPolicy()],
    // pdf.js's CMaps and standard fonts, bundled for the page view (src/renderer/src/features/dossier/pdfjs.ts).
    assetsInclude: ['**/*.bcmap', '**/*.pfb'],
    build: {
      rolldownOptions: { input: resolve(root, 'src/renderer/index.html') },
    },
  },
});
