/**
 * The Electron bundles as built by `electron-vite build` (CI builds before testing): the engine
 * process entry runs with a stand-in for Electron's `process.parentPort`, opens a workspace,
 * indexes a PDF through the bundled extraction worker and answers over the message protocol; and,
 * as the app, owns the embedding model for agents: <home>/owner.json and a guarded /embed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { firstMatch } from '#engine/testing/until.ts';
import { buildPdf } from './ingest-helpers/build-pdf.ts';

const ENTRY = resolve('out/main/engine-host.js');

const HARNESS = `
const { parentPort, workerData } = require('node:worker_threads');
process.env.BRAIN_HOME = workerData.home;
process.env.BRAIN_MODEL_DIR = workerData.noModel;
process.parentPort = {
  on: (event, listener) => parentPort.on('message', (data) => listener({ data })),
  postMessage: (message) => parentPort.postMessage(message),
};
import(workerData.entry);
`;

/** A GET with a chosen Host header (fetch will not let us set it); resolves the status. */
function get(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', fail);
    req.end();
  });
}

describe.runIf(existsSync(ENTRY))('built engine process', () => {
  it('starts, indexes a PDF with the bundled worker and answers calls', async () => {
    const root = mkdtempSync(join(tmpdir(), 'brain-bundle-'));
    const pdf = join(root, 'minutes.pdf');
    writeFileSync(pdf, buildPdf([['Board minutes', 'The board approved the Lisbon office lease.']]));
    const worker = new Worker(HARNESS, {
      eval: true,
      workerData: { entry: `file://${ENTRY}`, home: join(root, 'home'), noModel: join(root, 'no-model') },
    });
    const messages: { type: string; id?: number; result?: unknown; event?: string; payload?: unknown }[] = [];
    worker.on('message', (m) => messages.push(m));
    worker.on('error', (e) => console.error('worker error', e));
    const waitFor = (pred: (m: (typeof messages)[number]) => boolean) =>
      firstMatch(messages, pred, `a message (got ${JSON.stringify(messages.map((m) => m.type))})`);
    try {
      await waitFor((m) => m.type === 'ready');
      worker.postMessage({ type: 'invoke', id: 1, name: 'files.add', input: { paths: [pdf] } });
      await waitFor((m) => m.id === 1);
      worker.postMessage({ type: 'invoke', id: 2, name: 'files.index', input: {} });
      await waitFor(
        (m) => m.event === 'index.progress' && (m.payload as { phase: string }).phase === 'indexed',
      );
      worker.postMessage({ type: 'invoke', id: 3, name: 'search.query', input: { query: 'Lisbon lease' } });
      const found = (await waitFor((m) => m.id === 3)).result as {
        ok: boolean;
        data: { hits: { citation: { page: number } }[] };
      };
      expect(found.ok).toBe(true);
      expect(found.data.hits[0]?.citation.page).toBe(1);
      // The bundle finds the sample workspace from out/main as the sources do from src/.
      worker.postMessage({ type: 'invoke', id: 4, name: 'sample.load', input: {} });
      const sample = (await waitFor((m) => m.id === 4)).result as { ok: boolean; data: { added: unknown[] } };
      expect(sample.ok).toBe(true);
      expect(sample.data.added.length).toBeGreaterThan(2);
      worker.postMessage({ type: 'shutdown' });
      await new Promise((r) => worker.once('exit', r));
    } finally {
      await worker.terminate();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('publishes owner.json and serves embeddings behind the guard until it shuts down', async () => {
    const root = mkdtempSync(join(tmpdir(), 'brain-bundle-owner-'));
    const home = join(root, 'home');
    const worker = new Worker(HARNESS, {
      eval: true,
      workerData: { entry: `file://${ENTRY}`, home, noModel: join(root, 'no-model') },
    });
    const messages: { type: string }[] = [];
    worker.on('message', (m) => messages.push(m));
    try {
      await firstMatch(messages, (m) => m.type === 'ready', 'ready');
      // A worker thread shares this process's pid, which is what a live owner is checked by.
      const owner = JSON.parse(readFileSync(join(home, 'owner.json'), 'utf8')) as {
        pid: number;
        port: number;
        token: string;
      };
      expect(owner.pid).toBe(process.pid);
      const host = `127.0.0.1:${owner.port}`;
      expect(await get(owner.port, '/embed', { host, authorization: `Bearer ${owner.token}` })).toBe(200);
      expect(await get(owner.port, '/embed', { host, authorization: 'Bearer wrong' })).toBe(401);
      expect(
        await get(owner.port, '/embed', { host: 'evil.example', authorization: `Bearer ${owner.token}` }),
      ).toBe(403);
      worker.postMessage({ type: 'shutdown' });
      await new Promise((r) => worker.once('exit', r));
      expect(existsSync(join(home, 'owner.json'))).toBe(false);
    } finally {
      await worker.terminate();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
