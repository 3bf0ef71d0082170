/**
 * Where the chat model's API key lives. Never in the database (it syncs and is copied around).
 *
 * - CLI and the browser host: a file in the workspace folder readable only by the user (0600).
 * - The desktop app: the engine runs in an Electron utility process, which has no `safeStorage`.
 *   The seam: the utility process installs `installKeyStore(...)` with a store whose cipher asks the
 *   main process to encrypt or decrypt (src/engine/host/messages.ts `secret` messages, answered
 *   with `safeStorage` in src/main/engine-process.ts). Only the ciphertext is written, next to
 *   the workspace as `model-key.enc`; the plain key never touches the disk.
 */
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type KeyStore = {
  /** How the key is kept, for Settings: "file (0600)" or "safeStorage". */
  readonly kind: 'file' | 'safeStorage';
  readonly path: string;
  read(): Promise<string | null>;
  write(key: string | null): Promise<void>;
};

/** Encrypts and decrypts short strings (base64 ciphertext); in the app, `safeStorage` in main. */
export type Cipher = { encrypt(plain: string): Promise<string>; decrypt(cipher: string): Promise<string> };

const KEY_FILE = 'model-key';
const ENCRYPTED_KEY_FILE = 'model-key.enc';

function writePrivate(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600); // an existing file keeps its old mode on write
}

export function fileKeyStore(home: string): KeyStore {
  const path = join(home, KEY_FILE);
  return {
    kind: 'file',
    path,
    read: async () => (existsSync(path) ? readFileSync(path, 'utf8').trim() || null : null),
    write: async (key) => {
      if (key?.trim()) writePrivate(path, `${key.trim()}\n`);
      else rmSync(path, { force: true });
    },
  };
}

export function encryptedKeyStore(home: string, cipher: Cipher): KeyStore {
  const path = join(home, ENCRYPTED_KEY_FILE);
  return {
    kind: 'safeStorage',
    path,
    read: async () => {
      if (!existsSync(path)) return null;
      const data = readFileSync(path, 'utf8').trim();
      return data ? (await cipher.decrypt(data)).trim() || null : null;
    },
    write: async (key) => {
      if (key?.trim()) writePrivate(path, `${await cipher.encrypt(key.trim())}\n`);
      else rmSync(path, { force: true });
    },
  };
}

let factory: (home: string) => KeyStore = fileKeyStore;

/** The desktop app's engine process installs the safeStorage-backed store here at startup. */
export function installKeyStore(make: (home: string) => KeyStore): void {
  factory = make;
}

export function keyStoreFor(home: string): KeyStore {
  return factory(home);
}
