/**
 * The safeStorage seam of the desktop app. The engine runs in an Electron utility process, which
 * has no `safeStorage`; the main process has it. This cipher sends `secret` messages to main and
 * waits for its `secret-result` (src/main/engine-process.ts answers with safeStorage), so only
 * ciphertext ever reaches the disk (key-store.ts `encryptedKeyStore`).
 */
import type { Cipher } from './key-store.ts';

export type SecretRequest = { type: 'secret'; id: number; op: 'encrypt' | 'decrypt'; data: string };
export type SecretResult = { type: 'secret-result'; id: number; ok: boolean; data?: string; error?: string };

const TIMEOUT_MS = 10_000;

export function relayCipher(
  send: (message: SecretRequest) => void,
  onMessage: (listener: (message: { type: string }) => void) => void,
): Cipher {
  let next = 1;
  const pending = new Map<number, (r: SecretResult) => void>();
  onMessage((m) => {
    if (m.type !== 'secret-result') return;
    const r = m as SecretResult;
    pending.get(r.id)?.(r);
    pending.delete(r.id);
  });
  const ask = (op: SecretRequest['op'], data: string) =>
    new Promise<string>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('the app did not answer the key request'));
      }, TIMEOUT_MS);
      pending.set(id, (r) => {
        clearTimeout(timer);
        if (r.ok && r.data !== undefined) resolve(r.data);
        else reject(new Error(r.error ?? 'the key could not be read'));
      });
      send({ type: 'secret', id, op, data });
    });
  return { encrypt: (plain) => ask('encrypt', plain), decrypt: (cipher) => ask('decrypt', cipher) };
}
