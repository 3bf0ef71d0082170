/** The desktop app's key seam, over the real engine-process protocol with a stand-in for main's safeStorage. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type EngineMessage, type MainMessage, serveMessages } from '../host/messages.ts';
import { firstMatch } from '../testing/until.ts';
import { fileKeyStore, installKeyStore } from './key-store.ts';

afterEach(() => installKeyStore(fileKeyStore));

describe('the safeStorage seam', () => {
  it('asks the main process to encrypt the key and writes only the ciphertext', async () => {
    const home = mkdtempSync(join(tmpdir(), 'brain-secret-'));
    const sent: EngineMessage[] = [];
    const listeners: ((m: MainMessage) => void)[] = [];
    const deliver = (m: MainMessage) => {
      for (const l of listeners) l(m);
    };
    // Main's side: "safeStorage" here is base64 of the reversed text.
    const send = (m: EngineMessage) => {
      sent.push(m);
      if (m.type === 'secret') {
        const data =
          m.op === 'encrypt'
            ? Buffer.from([...m.data].reverse().join('')).toString('base64')
            : [...Buffer.from(m.data, 'base64').toString()].reverse().join('');
        setTimeout(() => deliver({ type: 'secret-result', id: m.id, ok: true, data }), 1);
      }
    };
    const waitFor = (pred: (m: EngineMessage) => boolean) => firstMatch(sent, pred);
    const served = serveMessages({
      home,
      version: '1',
      send,
      onMessage: (l) => listeners.push(l),
      safeStorage: true,
    });
    await waitFor((m) => m.type === 'ready');
    deliver({ type: 'invoke', id: 1, name: 'chatModel.set', input: { key: 'sk-app-987654321' } });
    const set = await waitFor((m) => m.type === 'result' && m.id === 1);
    expect(set).toMatchObject({ result: { ok: true, data: { hasKey: true, keyStorage: 'safeStorage' } } });
    expect(existsSync(join(home, 'model-key'))).toBe(false);
    expect(readFileSync(join(home, 'model-key.enc'), 'utf8')).not.toContain('sk-app-987654321');
    expect(sent.some((m) => m.type === 'secret' && m.op === 'decrypt')).toBe(true);
    deliver({ type: 'shutdown' });
    await served;
    rmSync(home, { recursive: true, force: true });
  });
});
