/**
 * Injection latency: the read injection of a turn (inject(): one search, anchors, floors, caps,
 * token budget, telemetry row) beside the plain search() it wraps, in the same run, on the same
 * generated corpus (bench/corpus.ts) and the same queries. Query embedding excluded from both: a
 * precomputed random query vector stands in for the model. Target: injection adds at most 20 %.
 *
 *   import { runInjectionBench } from './injection.ts';
 *   runInjectionBench({ sections: 100_000, queries: 200, dir, log });
 */
import { inject } from '#engine/search/injection.ts';
import { search } from '#engine/search/search.ts';
import { logEvent } from '#engine/telemetry.ts';
import { EMBED_DIM, SEARCH_K_MAX_AGENT } from '#shared/constants.ts';
import type { SearchResult } from '#shared/types.ts';
import { BENCH_MODEL, buildCorpus, READER_SCOPES } from './corpus.ts';
import {
  gaussian,
  type Latency,
  latency,
  printTable,
  randomUnitVector,
  rng,
  round,
  zipfSampler,
} from './util.ts';

export type InjectionBenchResult = {
  sections: number;
  queries: number;
  /** search() alone, no write between calls. */
  rawSearch: Latency;
  /** search() plus its telemetry row, as Engine.search (brain_search) runs it: the baseline. */
  search: Latency;
  injection: Latency;
  /** injection p50 / search p50 - 1, as a percentage. */
  overheadP50Pct: number;
  overheadP95Pct: number;
  injectedItemsMean: number;
};

const USER = 'bench';

function queries(
  vocab: readonly string[],
  count: number,
  seed: number,
): { text: string; vector: Float32Array }[] {
  const rand = rng(seed);
  const normal = gaussian(rand);
  const zipf = zipfSampler(vocab.length, 1.05, rand);
  return Array.from({ length: count }, () => {
    const words = Array.from({ length: 3 + Math.floor(rand() * 6) }, () =>
      rand() < 0.35 ? vocab[zipf()] : vocab[Math.floor(rand() * vocab.length)],
    );
    return { text: words.join(' '), vector: randomUnitVector(normal, EMBED_DIM) };
  });
}

export async function runInjectionBench(options: {
  sections?: number;
  queries?: number;
  dir: string;
  log?: (m: string) => void;
}): Promise<InjectionBenchResult> {
  const sections = options.sections ?? 100_000;
  const log = options.log ?? ((m: string) => console.log(m));
  log(`\n[injection] corpus of ${sections.toLocaleString()} sections`);
  const corpus = buildCorpus({ sections, dir: options.dir, log });
  const db = corpus.db;
  // The bench reader, a member of team eng, so injection's own scope lookup matches READER_SCOPES.
  const now = new Date().toISOString();
  db.prepare('INSERT OR IGNORE INTO users (id, name, created_at) VALUES (?, ?, ?)').run(USER, USER, now);
  db.prepare("INSERT OR IGNORE INTO teams (id, name, created_at) VALUES ('eng', 'eng', ?)").run(now);
  db.prepare("INSERT OR IGNORE INTO team_members (team_id, user_id) VALUES ('eng', ?)").run(USER);
  const scopes = [...READER_SCOPES];
  const firstTelemetry = (
    db.prepare('SELECT coalesce(max(id), 0) AS n FROM telemetry').get() as { n: number }
  ).n;

  const qs = queries(corpus.vocab, options.queries ?? 200, 4321);
  let current = qs[0];
  const runSearch = (text: string): SearchResult =>
    search(db, text, {
      scopes,
      k: SEARCH_K_MAX_AGENT,
      maxK: SEARCH_K_MAX_AGENT,
      queryVector: current ? { vector: current.vector, model: BENCH_MODEL } : null,
    });
  // As Engine.search does: every search leaves a telemetry row. Any write makes the next search's
  // vector mirror re-check its chunks (vector-stream.ts), so a fair baseline pays that too.
  const loggedSearch = (text: string): SearchResult => {
    const result = runSearch(text);
    logEvent(db, 'agent', USER, 'search', {
      query: text,
      hits: result.hits.map((h) => ({ id: h.id, score: h.score })),
    });
    return result;
  };
  const deps = { db, user: USER, search: async (text: string) => loggedSearch(text) };

  // Warm-up: every query's term frequencies cached and the vector mirror loaded, for both sides.
  for (const q of qs) {
    current = q;
    runSearch(q.text);
  }
  const rawMs: number[] = [];
  const searchMs: number[] = [];
  const injectMs: number[] = [];
  let injected = 0;
  // Whole passes, alternated: the keyword streams memoise the last query, so timing inject() right
  // after search() of the same text would measure a cache hit, not the work.
  for (let round = 0; round < 2; round++) {
    for (const q of qs) {
      current = q;
      const t = performance.now();
      runSearch(q.text);
      rawMs.push(performance.now() - t);
    }
    for (const q of qs) {
      current = q;
      const t = performance.now();
      loggedSearch(q.text);
      searchMs.push(performance.now() - t);
    }
    for (const q of qs) {
      current = q;
      const t = performance.now();
      const out = await inject(deps, { message: q.text, surface: 'agent' });
      injectMs.push(performance.now() - t);
      if (round === 0) injected += out.items.length;
    }
  }
  db.prepare('DELETE FROM telemetry WHERE id > ?').run(firstTelemetry);
  db.close();

  const raw = latency(rawMs);
  const s = latency(searchMs);
  const i = latency(injectMs);
  const result: InjectionBenchResult = {
    sections,
    queries: qs.length,
    rawSearch: raw,
    search: s,
    injection: i,
    overheadP50Pct: round((i.p50 / s.p50 - 1) * 100, 1),
    overheadP95Pct: round((i.p95 / s.p95 - 1) * 100, 1),
    injectedItemsMean: round(injected / qs.length, 2),
  };
  printTable(
    `Injection latency at ${sections.toLocaleString()} sections (ms, query embedding excluded; target: +20 % at most)`,
    ['path', 'p50', 'p95', 'mean', 'max'],
    [
      ['search() alone, no writes', raw.p50, raw.p95, raw.mean, raw.max],
      ['search() + telemetry (baseline)', s.p50, s.p95, s.mean, s.max],
      ['inject() (brain_context)', i.p50, i.p95, i.mean, i.max],
      ['inject vs baseline %', result.overheadP50Pct, result.overheadP95Pct, '', ''],
    ],
  );
  log(`  injected ${result.injectedItemsMean} items a turn on average`);
  return result;
}
