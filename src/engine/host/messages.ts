/**
 * The message protocol between the app's main process and its engine process. Kept apart from
 * the utility-process entry so it can be tested in plain Node over a MessageChannel.
 */
import type { EventName, Events } from '#shared/api/events.ts';
import { toTransferable } from '#shared/errors.ts';
import { type EmbeddingOwner, startEmbeddingOwner } from '../embed/remote.ts';
import { Engine } from '../engine.ts';
import { encryptedKeyStore, installKeyStore } from '../llm/key-store.ts';
import { relayCipher, type SecretRequest, type SecretResult } from '../llm/secret-relay.ts';
import type { BrainHost, Result } from './host.ts';
import { HostSlot } from './slot.ts';

export type MainMessage =
  | { type: 'invoke'; id: number; name: string; input: unknown }
  | { type: 'shutdown' }
  | SecretResult;
export type EngineMessage =
  | { type: 'ready' }
  | { type: 'fatal'; message: string }
  | { type: 'result'; id: number; result: Result<unknown> }
  | { type: 'event'; event: EventName; payload: Events[EventName] }
  | SecretRequest;

export type ServeOptions = {
  home?: string;
  version: string;
  send(message: EngineMessage): void;
  onMessage(listener: (message: MainMessage) => void): void;
  /** The desktop app: the model key is encrypted by the main process's safeStorage (llm/secret-relay.ts). */
  safeStorage?: boolean;
  /**
   * The desktop app: own the embedding model for agents' `brain mcp` processes when no other live
   * process does (serve it on 127.0.0.1, publish <home>/owner.json), as `brain serve` does.
   */
  ownEmbeddings?: boolean;
};

/** Owning is a service to other processes: if it cannot start, the app still runs, and says why. */
async function ownEmbeddings(host: BrainHost): Promise<EmbeddingOwner | null> {
  try {
    return await startEmbeddingOwner(host.engine.embedder, host.engine.home);
  } catch (err) {
    console.error(`[engine] not serving embeddings to other processes: ${toTransferable(err).message}`);
    return null;
  }
}

/** Opens the engine and answers invoke messages until told to shut down. */
export async function serveMessages(options: ServeOptions): Promise<void> {
  if (options.safeStorage)
    installKeyStore((home) => encryptedKeyStore(home, relayCipher(options.send, options.onMessage)));
  // The embedding owner serves the current engine's model: let go before a restore closes it
  // ([N18] in docs/PACKAGING.md), taken again on the engine opened after.
  let owner: EmbeddingOwner | null = null;
  let host: HostSlot;
  try {
    host = await HostSlot.start(
      () => Engine.open({ home: options.home, surface: 'app' }),
      { version: options.version },
      {
        attach: async (opened) => {
          if (options.ownEmbeddings) owner = await ownEmbeddings(opened);
        },
        detach: async () => {
          await owner?.close();
          owner = null;
        },
      },
    );
  } catch (err) {
    options.send({ type: 'fatal', message: toTransferable(err).message });
    return;
  }
  host.on((event, payload) => options.send({ type: 'event', event, payload }));
  let stopping = false;
  await new Promise<void>((done) => {
    options.onMessage((message) => {
      if (message.type === 'secret-result') return;
      if (message.type === 'shutdown') {
        if (stopping) return;
        stopping = true;
        // owner.json goes first (the slot's detach): no agent should pick an owner closing its model.
        void host.close().finally(done);
        return;
      }
      void host
        .invoke(message.name, message.input)
        .then((result) => options.send({ type: 'result', id: message.id, result }));
    });
    options.send({ type: 'ready' });
  });
}
