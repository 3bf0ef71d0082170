/** Test-only worker entry: dies on its first request, the way a native crash or OOM would. */
import { parentPort } from 'node:worker_threads';

parentPort!.on('message', () => {
  throw new Error('boom');
});
