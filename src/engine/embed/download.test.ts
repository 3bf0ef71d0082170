import {
  createReadStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelDownload } from '#shared/api/ops/workspace.ts';
import { DEFAULT_MODEL_ID, MULTILINGUAL_MODEL_ID } from '#shared/constants.ts';
import { run } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import { Engine } from '../engine.ts';
import { createTestWorkspace } from '../testing/test-engine.ts';
import { chosenModelId } from './choice.ts';
import { MODEL_HUB_ENV } from './download.ts';
import { createEmbedder, downloadModel } from './index.ts';
import { TINY_MODEL_DIR } from './test-helpers.ts';

const MODEL = 'acme/tiny-embedder';

/** A stand-in for the Hugging Face hub: /<model>/resolve/main/<file> serves the tiny model for these models. */
function startHub(
  models: readonly string[] = [MODEL],
): Promise<{ server: Server; url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '');
    requests.push(path);
    const prefix = models.map((m) => `/${m}/resolve/main/`).find((p) => path.startsWith(p));
    const file = prefix ? join(TINY_MODEL_DIR, path.slice(prefix.length)) : '';
    if (!file || !existsSync(file) || statSync(file).isDirectory()) {
      res.writeHead(404).end('not found');
      return;
    }
    const size = statSync(file).size;
    // The hub probes files with a one-byte range request before fetching them.
    if (req.headers.range === 'bytes=0-0') {
      res.writeHead(206, { 'content-length': 1, 'content-range': `bytes 0-0/${size}` });
      createReadStream(file, { start: 0, end: 0 }).pipe(res);
      return;
    }
    res.writeHead(200, { 'content-length': size });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/`, requests });
    }),
  );
}

describe('downloadModel', () => {
  let hub: Awaited<ReturnType<typeof startHub>>;
  const home = mkdtempSync(join(tmpdir(), 'embed-dl-'));
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(() => {
    hub.server.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('downloads once into <home>/models/<modelId> with progress, and the embedder uses it', async () => {
    const embedder = createEmbedder({ home, modelId: MODEL });
    expect(embedder.state().status).toBe('off');
    const fractions: number[] = [];
    const pending = downloadModel({
      home,
      modelId: MODEL,
      remoteHost: hub.url,
      onProgress: (fraction) => fractions.push(fraction),
    });
    expect(embedder.state()).toMatchObject({ status: 'downloading', progress: 0 });
    const dir = await pending;
    expect(dir).toBe(join(home, 'models', MODEL));
    expect(existsSync(join(dir, 'onnx', 'model.onnx'))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'brain-model.json'), 'utf8'))).toEqual({ id: MODEL, dim: 384 });
    expect(fractions.at(-1)).toBe(1);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    // No staging folder is left behind.
    expect(readdirSync(join(home, 'models')).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(embedder.state()).toMatchObject({ status: 'on', modelId: MODEL, dir });
    expect(await embedder.embedQuery('pricing')).toHaveLength(384);
    await embedder.close();

    const seen = hub.requests.length;
    expect(await downloadModel({ home, modelId: MODEL, remoteHost: hub.url })).toBe(dir);
    expect(hub.requests.length).toBe(seen);
  });

  it('rejects with a clear AppError when offline and leaves nothing behind', async () => {
    const offlineHome = mkdtempSync(join(tmpdir(), 'embed-off-'));
    const err = await downloadModel({
      home: offlineHome,
      modelId: MODEL,
      remoteHost: 'http://127.0.0.1:1/',
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'AppError', code: 'engine-unavailable' });
    expect((err as Error).message).toContain(`could not download the embedding model ${MODEL}`);
    expect((err as Error).message).toContain('keyword search still works');
    expect(readdirSync(join(offlineHome, 'models'))).toEqual([]);
    rmSync(offlineHome, { recursive: true, force: true });
  });
});

describe('[R8] model.download --multilingual', () => {
  let hub: Awaited<ReturnType<typeof startHub>>;
  const ws = createTestWorkspace();
  beforeAll(async () => {
    hub = await startHub([MULTILINGUAL_MODEL_ID]);
    process.env[MODEL_HUB_ENV] = hub.url;
  });
  afterAll(async () => {
    delete process.env[MODEL_HUB_ENV];
    hub.server.close();
    await ws.cleanup();
  });

  it('downloads the multilingual model from the configured hub and switches the workspace to it', async () => {
    const engine = Engine.open({ home: ws.home });
    await engine.add([ws.write('umzug.md', '# Umzug\n\nDie Spedition holt die Möbel ab.')]);
    await engine.index();
    expect(chosenModelId(engine.db)).toBe(DEFAULT_MODEL_ID);
    expect(engine.embedder.state().status).toBe('off');

    const out = await run(memberContext(engine, 'cli'), ModelDownload, { model: 'multilingual' });
    expect(out.dir).toBe(join(ws.home, 'models', MULTILINGUAL_MODEL_ID));
    expect(chosenModelId(engine.db)).toBe(MULTILINGUAL_MODEL_ID);
    expect(engine.embedder.state()).toMatchObject({ status: 'on', modelId: MULTILINGUAL_MODEL_ID });
    expect(hub.requests.some((r) => r.startsWith(`/${MULTILINGUAL_MODEL_ID}/resolve/main/`))).toBe(true);

    // What was indexed while the model was off gets vectors of the chosen model.
    await engine.index();
    const models = engine.db
      .prepare('SELECT DISTINCT embedded_model AS m FROM items WHERE indexed = 1 AND retired_at IS NULL')
      .all() as { m: string | null }[];
    expect(models).toEqual([{ m: MULTILINGUAL_MODEL_ID }]);
    expect((await engine.search('Möbel Spedition', { mode: 'hybrid' })).hits[0]?.citation?.fileLabel).toBe(
      'Umzug',
    );
  });
});
