import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstMatch } from '../testing/until.ts';
import { type EngineMessage, type MainMessage, serveMessages } from './messages.ts';

describe('engine process protocol', () => {
  it('answers invokes with results, pushes events, and shuts down cleanly', async () => {
    const home = mkdtempSync(join(tmpdir(), 'brain-msg-'));
    const sent: EngineMessage[] = [];
    let deliver: (m: MainMessage) => void = () => undefined;
    const waitFor = (pred: (m: EngineMessage) => boolean) => firstMatch(sent, pred);
    const served = serveMessages({
      home,
      version: '9.9.9',
      send: (m) => sent.push(m),
      onMessage: (l) => {
        deliver = l;
      },
    });
    await waitFor((m) => m.type === 'ready');
    deliver({ type: 'invoke', id: 1, name: 'app.info', input: undefined });
    deliver({ type: 'invoke', id: 2, name: 'files.list', input: { limit: 99999 } });
    deliver({ type: 'invoke', id: 3, name: 'sample.load', input: undefined });
    const info = await waitFor((m) => m.type === 'result' && m.id === 1);
    expect(info).toMatchObject({ result: { ok: true, data: { name: 'Org Brain', version: '9.9.9' } } });
    const bad = await waitFor((m) => m.type === 'result' && m.id === 2);
    expect(bad).toMatchObject({ result: { ok: false, error: { code: 'validation-failed' } } });
    await waitFor((m) => m.type === 'result' && m.id === 3);
    await waitFor(
      (m) =>
        m.type === 'event' &&
        m.event === 'index.progress' &&
        (m.payload as { phase?: string }).phase === 'indexed',
    );
    deliver({ type: 'shutdown' });
    await served;
    rmSync(home, { recursive: true, force: true });
  });

  it('[N18] restores a backup in the engine process: the owner of the embeddings lets go and comes back, the window is told', async () => {
    const home = mkdtempSync(join(tmpdir(), 'brain-msg-restore-'));
    const sent: EngineMessage[] = [];
    let deliver: (m: MainMessage) => void = () => undefined;
    const waitFor = (pred: (m: EngineMessage) => boolean) => firstMatch(sent, pred);
    const served = serveMessages({
      home,
      version: '9.9.9',
      ownEmbeddings: true,
      send: (m) => sent.push(m),
      onMessage: (l) => {
        deliver = l;
      },
    });
    await waitFor((m) => m.type === 'ready');
    const ownerFile = join(home, 'owner.json');
    expect(JSON.parse(readFileSync(ownerFile, 'utf8'))).toMatchObject({ pid: process.pid });
    deliver({ type: 'invoke', id: 1, name: 'backups.create', input: {} });
    const created = (await waitFor((m) => m.type === 'result' && m.id === 1)) as {
      result: { ok: true; data: { taken: { name: string } } };
    };
    deliver({
      type: 'invoke',
      id: 2,
      name: 'backups.restore',
      input: { name: created.result.data.taken.name },
    });
    const restored = await waitFor((m) => m.type === 'result' && m.id === 2);
    expect(restored).toMatchObject({
      result: { ok: true, data: { restored: created.result.data.taken.name } },
    });
    await waitFor((m) => m.type === 'event' && m.event === 'app.command');
    expect(JSON.parse(readFileSync(ownerFile, 'utf8'))).toMatchObject({ pid: process.pid });
    deliver({ type: 'invoke', id: 3, name: 'app.info', input: undefined });
    expect(await waitFor((m) => m.type === 'result' && m.id === 3)).toMatchObject({ result: { ok: true } });
    deliver({ type: 'shutdown' });
    await served;
    expect(existsSync(ownerFile)).toBe(false);
    rmSync(home, { recursive: true, force: true });
  });
});
