/**
 * Runs the vector streams of a search on a second core while the main thread runs the keyword
 * streams: search() posts the query vector to the database's vector worker (vector-worker.ts),
 * runs the keyword streams, then collects the three vector lists. search() stays synchronous:
 * the reply is taken with receiveMessageOnPort, and the wait for it is an Atomics.wait on a
 * counter the worker bumps after each reply (no event loop turn needed).
 *
 * Only for file databases of at least WORKER_MIN_ROWS items: below that the vector streams take
 * well under a millisecond in-thread, less than the hand-off. The worker is unref'd (it never
 * keeps a process alive); when it cannot answer (mirror unavailable, crashed, too slow) the
 * caller runs the streams in-thread.
 */
import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from 'node:worker_threads';
import { EMBED_DIM } from '#shared/constants.ts';
import { type Db, stmt } from '../db/driver.ts';
import { startWorker } from '../processes/worker.ts';

export const STREAM_NAMES = ['file', 'section', 'note'] as const;
type StreamName = (typeof STREAM_NAMES)[number];

export type VectorWorkerInput = { path: string };
export type VectorRequest = {
  seq: number;
  vector: Float32Array;
  model: string;
  scopes: string[];
  limit: number;
};
export type VectorReply = { seq: number; lists: Record<StreamName, number[]> | null };

/** Items in the database before the vector streams move to a worker. */
export const VECTOR_WORKER_MIN_ROWS = 20_000;
let workerMinRows = VECTOR_WORKER_MIN_ROWS;
/** The longest wait for the first reply (it includes the worker's start and the mirror load). */
const FIRST_REPLY_TIMEOUT_MS = 120_000;
/** Later replies are a scan of a loaded mirror: a worker this slow has died or hangs; search goes on in-thread. */
const REPLY_TIMEOUT_MS = 10_000;

type Client = {
  path: string;
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
  seq: number;
  dead: boolean;
  answered: boolean;
  /** Settles when the worker's thread has ended. */
  exited: Promise<void>;
  /** The connections using it: one worker (one mirror in memory) per database file, shared. */
  users: Set<Db>;
};
const clients = new WeakMap<Db, Client | null>();
const byPath = new Map<string, Client>();

/** Tests: how many vector workers this process runs. */
export function sharedWorkers(): number {
  return [...byPath.values()].filter((c) => !c.dead).length;
}

/** Tests and benchmarks: use the worker for any file database (0), never, or the default. */
export function setVectorWorkerMinRows(rows: number): void {
  workerMinRows = rows;
}

function clientOf(db: Db): Client | null {
  const have = clients.get(db);
  if (have === null) return null;
  const rows = (stmt(db, 'SELECT max(rowid) AS n FROM items').get() as { n: number | null }).n ?? 0;
  if (rows < workerMinRows) return null; // asked again next time: the database may grow
  if (have !== undefined) return have.dead ? null : have;
  if (db.memory || !db.name || db.name === ':memory:') {
    clients.set(db, null);
    return null;
  }
  // Another connection to the same file in this process (`brain serve` and its MCP endpoint)
  // shares its worker: the worker reads the file itself, and a mirror of 1M vectors is ~0.5 GB.
  const shared = byPath.get(db.name);
  if (shared && !shared.dead) {
    shared.users.add(db);
    clients.set(db, shared);
    return shared;
  }
  try {
    const worker = startWorker('vector-worker', { data: { path: db.name } satisfies VectorWorkerInput });
    worker.unref();
    const channel = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    worker.postMessage({ port: channel.port2, signal }, [channel.port2]);
    channel.port1.unref();
    const client: Client = {
      path: db.name,
      users: new Set([db]),
      worker,
      port: channel.port1,
      flag: new Int32Array(signal),
      seq: 0,
      dead: false,
      answered: false,
      exited: new Promise<void>((resolve) => worker.once('exit', () => resolve())),
    };
    worker.on('error', () => {
      client.dead = true;
    });
    worker.on('exit', () => {
      client.dead = true;
    });
    clients.set(db, client);
    byPath.set(db.name, client);
    return client;
  } catch {
    clients.set(db, null);
    return null;
  }
}

/** A started vector request: collect() returns the three lists, or null (run them in-thread). */
export type PendingVectors = { collect(): Record<StreamName, number[]> | null };

export function startVectors(
  db: Db,
  query: { vector: Float32Array; model: string },
  scopes: readonly string[],
  limit: number,
): PendingVectors | null {
  const client = clientOf(db);
  if (!client) return null;
  const seq = ++client.seq;
  client.port.postMessage({
    seq,
    vector: query.vector,
    model: query.model,
    scopes: [...scopes],
    limit,
  } satisfies VectorRequest);
  return { collect: () => collect(client, seq) };
}

function collect(client: Client, seq: number): Record<StreamName, number[]> | null {
  const deadline = Date.now() + (client.answered ? REPLY_TIMEOUT_MS : FIRST_REPLY_TIMEOUT_MS);
  for (;;) {
    const seen = Atomics.load(client.flag, 0);
    for (let got = receiveMessageOnPort(client.port); got; got = receiveMessageOnPort(client.port)) {
      const reply = got.message as VectorReply;
      if (reply.seq === seq) {
        client.answered = true;
        return reply.lists;
      }
    }
    if (client.dead) return null;
    const left = deadline - Date.now();
    if (left <= 0) {
      // Too slow or gone: stop using it; this and later searches run in-thread.
      client.dead = true;
      void client.worker.terminate();
      return null;
    }
    Atomics.wait(client.flag, 0, seen, Math.min(left, 1000));
  }
}

/**
 * Starts the database's vector worker (when it is big enough to have one) and has it load its
 * mirror now, on its own core: hosts that stay up (the app's engine, `brain serve`, `brain mcp`)
 * call this at start, so the load (about 1 s at 100k items, 20 s at 1M) happens while the user
 * is still looking around, not inside their first search (which only waits for what is left of
 * it). The warm-up is an ordinary request that matches no model; its answer is ignored.
 * Returns whether a worker is warming.
 */
export function warmVectors(db: Db): boolean {
  const client = clientOf(db);
  if (!client) return false;
  client.port.postMessage({
    seq: ++client.seq,
    vector: new Float32Array(EMBED_DIM),
    model: '',
    scopes: [],
    limit: 1,
  } satisfies VectorRequest);
  return true;
}

/** This connection stops using the vector worker (Engine.close); the last one ends it. */
export async function closeVectorWorker(db: Db): Promise<void> {
  const client = clients.get(db);
  clients.delete(db);
  if (!client) return;
  client.users.delete(db);
  if (client.users.size > 0 && !client.dead) return;
  if (byPath.get(client.path) === client) byPath.delete(client.path);
  client.dead = true;
  // Let it finish what it queued (it may be writing the mirror's file anew): a worker stopped in
  // the middle of that would leave the temporary file behind. Stopped anyway after CLOSE_WAIT_MS.
  client.port.postMessage({ close: true });
  const timer = setTimeout(() => void client.worker.terminate(), CLOSE_WAIT_MS);
  await client.exited;
  clearTimeout(timer);
  client.port.close();
}

/** How long a closing engine waits for its vector worker to finish writing its mirror's file. */
const CLOSE_WAIT_MS = 5_000;
