/**
 * Starts a worker thread from an entry module URL. From source (a `.ts` entry) it goes through
 * worker-boot.mjs, which registers tsx; from a build it starts the `.js` entry directly.
 * The entry reads its own input from `workerData.data`.
 */
import { type ResourceLimits, Worker } from 'node:worker_threads';

export type StartWorkerOptions = { data?: unknown; resourceLimits?: ResourceLimits };

export function startWorker(entry: URL, options: StartWorkerOptions = {}): Worker {
  const isSource = entry.pathname.endsWith('.ts');
  if (isSource) {
    const boot = new URL('./worker-boot.mjs', import.meta.url);
    return new Worker(boot, {
      workerData: { entry: entry.href, data: options.data },
      resourceLimits: options.resourceLimits,
    });
  }
  return new Worker(entry, { workerData: { data: options.data }, resourceLimits: options.resourceLimits });
}
