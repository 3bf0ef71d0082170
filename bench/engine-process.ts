/**
 * A fresh engine process for the speed bench (bench/speed.ts): it opens the corpus database the
 * way a host does (the engine's own driver, its default cache), answers a first whole search
 * (vector worker start and the mirror read from its file included), then the timed searches, and
 * prints one JSON line: those figures and the process's resident memory. The bench's own process
 * built the corpus (with a large page cache and the generator's data) and so is not the engine's
 * memory. Run: node bin/tsx.mjs bench/engine-process.ts <db> <queries.json>
 */
import { readFileSync } from 'node:fs';
import { openDb } from '#engine/db/driver.ts';
import { search } from '#engine/search/search.ts';
import { closeVectorWorker } from '#engine/search/vector-client.ts';
import { BENCH_MODEL, READER_SCOPES } from './corpus.ts';
import { latency, round } from './util.ts';

type Wire = { text: string; vector: number[] };

const [dbPath, queriesPath] = process.argv.slice(2);
if (!dbPath || !queriesPath) throw new Error('usage: engine-process.ts <db> <queries.json>');
const { warm, timed } = JSON.parse(readFileSync(queriesPath, 'utf8')) as { warm: Wire[]; timed: Wire[] };
const scopes = [...READER_SCOPES];
const run = (q: Wire) =>
  search(db, q.text, {
    scopes,
    maxK: 100,
    k: 10,
    queryVector: { vector: Float32Array.from(q.vector), model: BENCH_MODEL },
  });

const t0 = performance.now();
const db = openDb(dbPath);
const openMs = performance.now() - t0;
const tf = performance.now();
run(warm[0] as Wire);
const firstSearchMs = performance.now() - tf;
for (const q of warm) run(q);
const samples = timed.map((q) => {
  const t = performance.now();
  run(q);
  return performance.now() - t;
});
const rssMb = round(process.memoryUsage().rss / 2 ** 20);
await closeVectorWorker(db);
db.close();
process.stdout.write(
  `${JSON.stringify({ openMs: round(openMs), firstSearchMs: round(firstSearchMs), search: latency(samples), rssMb })}\n`,
);
