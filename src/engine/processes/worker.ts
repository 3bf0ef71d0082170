/**
 * Starts a worker thread by name. From source (CLI through tsx, vitest) the entry is the `.ts`
 * module, booted through worker-boot.mjs which registers tsx; from a build (the Electron bundles)
 * it is `<name>.js` beside the bundle, which electron.vite.config.ts emits as its own entry.
 * The entry reads its input from `workerData.data`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type ResourceLimits, Worker } from 'node:worker_threads';

export type StartWorkerOptions = { data?: unknown; resourceLimits?: ResourceLimits };

/** Every worker entry: each is `<name>.ts` in this folder (src/engine/processes). */
const WORKER_NAMES = ['extract-worker', 'embed-worker', 'download-worker', 'vector-worker'] as const;
export type WorkerName = (typeof WORKER_NAMES)[number];

const here = fileURLToPath(import.meta.url);
const fromSource = here.endsWith('.ts');

function workerEntry(name: WorkerName): URL {
  if (fromSource) return pathToFileURL(join(dirname(here), `${name}.ts`));
  return pathToFileURL(join(dirname(here), `${name}.js`));
}

/** `entry` is a worker name, or (in tests) the URL of any TypeScript worker module. */
export function startWorker(entry: WorkerName | URL, options: StartWorkerOptions = {}): Worker {
  const url = typeof entry === 'string' ? workerEntry(entry) : entry;
  if (url.pathname.endsWith('.ts')) {
    const boot = join(dirname(here), 'worker-boot.mjs');
    return new Worker(boot, {
      workerData: { entry: url.href, data: options.data },
      resourceLimits: options.resourceLimits,
    });
  }
  return new Worker(url, { workerData: { data: options.data }, resourceLimits: options.resourceLimits });
}
