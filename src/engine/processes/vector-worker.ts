/**
 * The vector worker: holds the in-memory vector mirror of one workspace database on a second core
 * (its own read-only connection to the same file; WAL lets it read beside the writer), so the
 * main thread can run the keyword streams meanwhile. Started by vector-client.ts, which sends it a
 * MessagePort and a shared Int32Array; each request on the port is answered on the port, then the
 * counter at index 0 is bumped and notified so that a synchronously waiting caller wakes up. A
 * `{ close: true }` message ends it once the work already queued is done.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { Db } from '../db/driver.ts';
import { loadVecExtension } from '../db/vec-extension.ts';
import {
  STREAM_NAMES,
  type VectorReply,
  type VectorRequest,
  type VectorWorkerInput,
} from '../search/vector-client.ts';
import { mirrorKnn } from '../search/vector-stream.ts';

const { path } = (workerData as { data: VectorWorkerInput }).data;
let db: Db | null = null;

function open(): Db {
  const d = new Database(path, {
    readonly: true,
    fileMustExist: true,
    nativeBinding: process.env.BRAIN_SQLITE_BINDING || undefined,
  });
  loadVecExtension(d);
  return d;
}

function answer(req: VectorRequest): VectorReply {
  try {
    db ??= open();
    const lists: Record<string, number[]> = {};
    for (const s of STREAM_NAMES) {
      const got = mirrorKnn(db, req.vector, req.model, s, req.scopes, req.limit);
      if (!got) return { seq: req.seq, lists: null };
      lists[s] = got;
    }
    return { seq: req.seq, lists: lists as VectorReply['lists'] };
  } catch {
    return { seq: req.seq, lists: null };
  }
}

parentPort?.once('message', (init: { port: MessagePort; signal: SharedArrayBuffer }) => {
  const flag = new Int32Array(init.signal);
  init.port.on('message', (req: VectorRequest | { close: true }) => {
    if ('close' in req) {
      // After what is queued (a mirror file being written anew once an answer was out), not in it.
      setImmediate(() => {
        db?.close();
        process.exit(0);
      });
      return;
    }
    init.port.postMessage(answer(req));
    Atomics.add(flag, 0, 1);
    Atomics.notify(flag, 0);
  });
});
