// Boots a TypeScript worker entry when running from source (CLI via tsx, vitest): registers
// tsx in this thread, then imports the real entry. Built bundles start their .js entries directly.
import { workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
await import(workerData.entry);
