#!/usr/bin/env node
/**
 * The Electron smoke test, for machines with an Electron binary (a developer's, the hosted CI:
 * .github/workflows/release.yml). It starts the packaged app (`node scripts/smoke-electron.mjs
 * dist/linux-unpacked/org-brain`, or the unpacked `electron .` without an argument) with a
 * temporary data folder, checks that the Files screen renders, hands it a file the way the OS
 * does when one is dropped on the app's icon (a second launch naming it, docs/PACKAGING.md [N8]),
 * indexes it and finds it by a word. Where no Electron binary exists it says so and exits 0.
 * Not a unit test: `npm test` never runs it.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const TIMEOUT_MS = 120_000;

/** The Electron binary of node_modules/electron, or null where it was never downloaded. */
function electronBinary() {
  try {
    const path = require('electron');
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

async function until(what, check) {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function main() {
  const packaged = process.argv[2] ? resolve(process.argv[2]) : null;
  const electron = electronBinary();
  if (packaged && !existsSync(packaged)) {
    console.error(`smoke test failed: ${packaged} does not exist (run \`npm run dist\` first).`);
    return 1;
  }
  if (!packaged && !electron) {
    console.log('Electron binary not available: smoke test skipped');
    return 0;
  }
  const { _electron } = await import('playwright-core');
  const data = mkdtempSync(join(tmpdir(), 'brain-smoke-'));
  const file = join(data, 'smoke-note.md');
  writeFileSync(file, '# Smoke test\n\nThe quartermaster keeps the periwinkle ledger.\n');
  const app = await _electron.launch({
    executablePath: packaged ?? electron,
    args: [
      ...(packaged ? [] : [root]),
      `--user-data-dir=${join(data, 'profile')}`,
      // Hosted Linux runners forbid the user namespaces Chromium's OS sandbox needs; the renderer's
      // own sandbox (app.enableSandbox in src/main/index.ts) is unaffected.
      ...(process.platform === 'linux' && process.env.CI ? ['--no-sandbox'] : []),
    ],
    env: { ...process.env, BRAIN_HOME: join(data, 'workspace'), ELECTRON_ENABLE_LOGGING: '1' },
    timeout: TIMEOUT_MS,
  });
  try {
    const window = await app.firstWindow({ timeout: TIMEOUT_MS });
    await window.getByRole('heading', { name: 'Files' }).waitFor({ timeout: TIMEOUT_MS });
    console.log('ok: the Files screen renders');

    // What a second launch with the file on its command line makes the running app do.
    await app.evaluate(({ app: electronApp }, path) => {
      electronApp.emit('second-instance', {}, [process.execPath, path], process.cwd(), {});
    }, file);
    const invoke = (name, input) => window.evaluate(([n, i]) => window.api.invoke(n, i), [name, input]);
    const added = await until('the file to be added', async () => {
      const res = await invoke('files.list', {});
      return res.ok && res.data.rows.find((r) => r.label === 'smoke-note.md');
    });
    console.log(`ok: the handed-over file was added (${added.id})`);

    await invoke('files.index', { ids: [added.id] });
    await until('the file to be indexed', async () => {
      const res = await invoke('files.list', {});
      const row = res.ok && res.data.rows.find((r) => r.id === added.id);
      if (row?.state === 'failed') throw new Error(`Indexing failed: ${JSON.stringify(row)}`);
      return row?.state === 'indexed';
    });
    const found = await invoke('search.query', { query: 'periwinkle ledger' });
    if (!found.ok || found.data.hits[0]?.citation.fileId !== added.id)
      throw new Error(`Search did not find the file: ${JSON.stringify(found)}`);
    console.log('ok: the file is indexed and found');
    return 0;
  } finally {
    await app.close().catch(() => {});
    rmSync(data, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`smoke test failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
