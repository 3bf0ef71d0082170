import { AppError } from '#shared/errors.ts';
import { startWorker, type WorkerName } from '../processes/worker.ts';
import type { EmbedReply, EmbedRequest, EmbedWorkerInput } from './types.ts';

/** The main thread's handle on the one inference worker. */
export type EmbedWorkerClient = {
  run(texts: string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
};

type Pending = { resolve: (vectors: Float32Array[]) => void; reject: (err: AppError) => void };

let liveWorkers = 0;

/** How many embed workers are running in this process (tests check close() ends them). */
export function liveEmbedWorkers(): number {
  return liveWorkers;
}

/**
 * onDead is called once with the reason when the worker cannot serve any more requests.
 * entry is only swapped by tests, to run a worker that crashes.
 */
export function startEmbedWorker(
  dir: string,
  onDead: (reason: string) => void,
  entry: WorkerName | URL = 'embed-worker',
): EmbedWorkerClient {
  const data: EmbedWorkerInput = { dir };
  const worker = startWorker(entry, { data });
  liveWorkers += 1;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let dead: string | null = null;

  // An idle worker must not keep a CLI process alive; it is ref'd only while work is waiting.
  const refWhileBusy = () => (pending.size > 0 ? worker.ref() : worker.unref());
  refWhileBusy();

  const die = (reason: string) => {
    if (dead) return;
    dead = reason;
    for (const p of pending.values()) p.reject(new AppError('engine-unavailable', reason));
    pending.clear();
    onDead(reason);
  };

  worker.on('message', (message: EmbedReply) => {
    const p = pending.get(message.id);
    pending.delete(message.id);
    refWhileBusy();
    if (message.type === 'vectors') return p?.resolve(message.vectors);
    if (message.fatal) {
      p?.reject(new AppError('engine-unavailable', message.error.message, message.error.details));
      die(message.error.message);
      void worker.terminate();
      return;
    }
    p?.reject(new AppError(message.error.code, message.error.message, message.error.details));
  });
  worker.on('error', (err) => die(`the embedding worker crashed: ${err.message}`));
  worker.on('exit', (code) => {
    liveWorkers -= 1;
    die(`the embedding worker stopped (exit code ${code})`);
  });

  const run = (texts: string[]): Promise<Float32Array[]> => {
    if (dead) return Promise.reject(new AppError('engine-unavailable', dead));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      refWhileBusy();
      worker.postMessage({ type: 'embed', id, texts } satisfies EmbedRequest);
    });
  };

  return {
    run,
    close: async () => {
      die('the embedder was closed');
      await worker.terminate();
    },
  };
}
