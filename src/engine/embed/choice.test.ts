/**
 * [R8] in docs/RETRIEVAL.md: the workspace's embedding model is one choice every process follows.
 * Two engines on one workspace are two SQLite connections, as two processes are; the models are
 * the tiny test model installed under both ids, as a download leaves them.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelUse } from '#shared/api/ops/workspace.ts';
import { DEFAULT_MODEL_ID, MULTILINGUAL_MODEL_ID } from '#shared/constants.ts';
import { run } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import { Engine } from '../engine.ts';
import { embedMissing } from '../indexing/index-queue.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { chosenModelId, itemsToEmbed } from './choice.ts';
import { TINY_MODEL_DIR } from './test-helpers.ts';

let ws: TestWorkspace;
afterEach(async () => ws?.cleanup());

function install(home: string, modelId: string): void {
  const dir = join(home, 'models', modelId);
  cpSync(TINY_MODEL_DIR, dir, { recursive: true });
  writeFileSync(join(dir, 'brain-model.json'), `${JSON.stringify({ id: modelId, dim: 384 })}\n`);
}

const vectorModels = (engine: Engine) =>
  (
    engine.db
      .prepare('SELECT DISTINCT embedded_model AS m FROM items WHERE indexed = 1 ORDER BY m')
      .all() as {
      m: string | null;
    }[]
  ).map((r) => r.m);

describe('[R8] one embedding model per workspace, followed by every process', () => {
  it('a switch made by another process is followed by a host that stays up; search works throughout', async () => {
    ws = createTestWorkspace();
    install(ws.home, DEFAULT_MODEL_ID);
    install(ws.home, MULTILINGUAL_MODEL_ID);
    const host = Engine.open({ home: ws.home });
    await host.add([
      ws.write('tea.md', '# Tea\n\n烏龍茶鉄観音 is an oolong tea from Fujian.'),
      ws.write('billing.md', '# Billing\n\nInvoices go out on the first working day.'),
    ]);
    await host.index();
    expect(host.embedder.modelId()).toBe(DEFAULT_MODEL_ID);
    expect(vectorModels(host)).toEqual([DEFAULT_MODEL_ID]);

    const cli = Engine.open({ home: ws.home });
    const out = await run(memberContext(cli, 'cli'), ModelUse, { model: 'multilingual' });
    expect(out).toMatchObject({
      modelId: MULTILINGUAL_MODEL_ID,
      toEmbed: itemsToEmbed(cli.db, MULTILINGUAL_MODEL_ID),
    });
    expect(out.toEmbed).toBeGreaterThan(0);

    // The host, idle, follows at its next look; its old vectors are not searched but keywords are.
    expect(host.embedder.state()).toMatchObject({ status: 'on', modelId: MULTILINGUAL_MODEL_ID });
    const during = await host.search('when do invoices go out', { mode: 'hybrid' });
    expect(during.hits[0]?.citation?.fileLabel).toBe('Billing');

    const embedded = await embedMissing({
      db: host.db,
      blobs: host.blobs,
      workspaceId: host.workspaceId,
      embedder: host.embedder,
    });
    expect(embedded).toBe(out.toEmbed);
    expect(vectorModels(host)).toEqual([MULTILINGUAL_MODEL_ID]);
    expect(itemsToEmbed(host.db, MULTILINGUAL_MODEL_ID)).toBe(0);
    const after = await host.search('鉄観音', { mode: 'hybrid' });
    expect(after.hits[0]?.citation?.fileLabel).toBe('Tea');

    // And back: the English model is still here, so nothing downloads.
    await run(memberContext(cli, 'cli'), ModelUse, { model: 'english' });
    expect(host.embedder.modelId()).toBe(DEFAULT_MODEL_ID);
  });

  it('refuses a model that is not downloaded, naming how to get it, and changes nothing', async () => {
    ws = createTestWorkspace();
    install(ws.home, DEFAULT_MODEL_ID);
    const engine = Engine.open({ home: ws.home });
    const err = await run(memberContext(engine, 'cli'), ModelUse, { model: 'multilingual' }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: 'AppError', code: 'not-found' });
    expect((err as Error).message).toContain('brain model download --multilingual');
    expect(chosenModelId(engine.db)).toBe(DEFAULT_MODEL_ID);
    expect(engine.embedder.modelId()).toBe(DEFAULT_MODEL_ID);
  });

  it('keeps the model in use while the chosen one is missing, and says which one waits', async () => {
    ws = createTestWorkspace();
    install(ws.home, DEFAULT_MODEL_ID);
    const engine = Engine.open({ home: ws.home });
    await engine.add([ws.write('billing.md', '# Billing\n\nInvoices go out on the first working day.')]);
    await engine.index();
    // Another replica's settings or a hand edit: chosen, but not here yet.
    engine.db
      .prepare(
        "INSERT INTO meta (key, value) VALUES ('embedding_model', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      )
      .run(MULTILINGUAL_MODEL_ID);
    expect(engine.embedder.state()).toMatchObject({
      status: 'on',
      modelId: DEFAULT_MODEL_ID,
      pending: MULTILINGUAL_MODEL_ID,
    });
    const { hits } = await engine.search('invoices first working day', { mode: 'hybrid' });
    expect(hits[0]?.citation?.fileLabel).toBe('Billing');
  });
});
