/**
 * The engine process of the desktop app (an Electron utilityProcess, started by
 * src/main/engine-process.ts): the BrainHost runs here so SQLite, extraction and embedding never
 * block the window. Main only relays messages. This file uses the utility process's
 * `process.parentPort` and never imports electron.
 */
import { isMainThread } from 'node:worker_threads';
import { type EngineMessage, type MainMessage, serveMessages } from '../host/messages.ts';

type ParentPort = {
  on(event: 'message', listener: (e: { data: MainMessage }) => void): void;
  postMessage(message: EngineMessage): void;
};

// What libraries create in the workspace (SQLite's journal files) is the owner's only, as in the
// CLI ([M1] in docs/SECURITY.md); a utility process may not inherit the main process's umask. A
// worker thread (test/electron-bundle.test.ts runs the bundle in one) may not set it: its
// process's applies.
if (isMainThread) process.umask(0o077);

const port = (process as unknown as { parentPort?: ParentPort }).parentPort;
if (!port) {
  console.error('utility-entry must run as an Electron utility process');
  process.exit(1);
}
const listeners: ((m: MainMessage) => void)[] = [];
port.on('message', (e) => {
  for (const l of listeners) l(e.data);
});
await serveMessages({
  home: process.env.BRAIN_HOME,
  version: process.env.BRAIN_APP_VERSION ?? '0.0.0',
  send: (m) => port.postMessage(m),
  onMessage: (l) => listeners.push(l),
  safeStorage: true,
  // The app is the embedding owner while it runs (README "One model for all of them").
  ownEmbeddings: true,
});
// The parent port keeps the process alive; once the engine is closed, leave.
process.exit(0);
