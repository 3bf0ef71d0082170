/**
 * Part 3, retrieval quality on SciFact (BEIR layout): each doc becomes `<_id>.md`, added and
 * indexed through the engine; every test query runs with k = 100; section and file hits collapse
 * to their doc (best rank wins); nDCG@10 (binary gains, trec_eval style) and Recall@100.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Engine } from '#engine/engine.ts';
import type { SearchMode } from '#engine/search/search.ts';
import type { SearchHit } from '#shared/types.ts';
import { round } from './util.ts';

const SCIFACT_DIR = '/work/shared/eval/scifact';

type ModeScore = {
  mode: SearchMode;
  ndcg10: number;
  recall100: number;
  queries: number;
  msPerQuery: number;
};
export type QualityResult = {
  docs: number;
  queries: number;
  indexSeconds: number;
  model: string | null;
  modelNote: string;
  scores: ModeScore[];
};

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

function readQrels(path: string): Map<string, Set<string>> {
  const qrels = new Map<string, Set<string>>();
  for (const line of readFileSync(path, 'utf8').split('\n').slice(1)) {
    const [q, d, score] = line.trim().split('\t');
    if (!q || !d || Number(score) <= 0) continue;
    if (!qrels.has(q)) qrels.set(q, new Set());
    qrels.get(q)?.add(d);
  }
  return qrels;
}

/**
 * The doc id of a hit: its file's name without the extension (the path it was added from; the
 * label shown is the document's title, docs/RETRIEVAL.md [R5]).
 */
function docOf(hit: SearchHit, pathOf: (fileId: string) => string | null): string | null {
  const fileId = hit.citation?.fileId ?? (hit.storageKind === 'file' ? hit.id : null);
  const path = fileId ? pathOf(fileId) : null;
  return path ? basename(path).replace(/\.md$/, '') : null;
}

/** Docs in order of their best hit. */
function collapse(hits: readonly SearchHit[], pathOf: (fileId: string) => string | null): string[] {
  const seen = new Set<string>();
  const docs: string[] = [];
  for (const h of hits) {
    const d = docOf(h, pathOf);
    if (d && !seen.has(d)) {
      seen.add(d);
      docs.push(d);
    }
  }
  return docs;
}

function ndcgAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((d, i) => {
    if (relevant.has(d)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal > 0 ? dcg / ideal : 0;
}

function recallAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  if (relevant.size === 0) return 0;
  return ranked.slice(0, k).filter((d) => relevant.has(d)).length / relevant.size;
}

export async function runQuality(options: {
  dir: string;
  modelDir: string | undefined;
  maxQueries?: number;
  log: (m: string) => void;
}): Promise<QualityResult> {
  const { dir, log } = options;
  rmSync(dir, { recursive: true, force: true });
  const docsDir = join(dir, 'docs');
  mkdirSync(docsDir, { recursive: true });
  const corpus = readJsonl<{ _id: string; title: string; text: string }>(join(SCIFACT_DIR, 'corpus.jsonl'));
  for (const d of corpus) writeFileSync(join(docsDir, `${d._id}.md`), `# ${d.title}\n\n${d.text}\n`);
  const queries = new Map(
    readJsonl<{ _id: string; text: string }>(join(SCIFACT_DIR, 'queries.jsonl')).map((q) => [q._id, q.text]),
  );
  const qrels = readQrels(join(SCIFACT_DIR, 'qrels', 'test.tsv'));
  const testIds = [...qrels.keys()]
    .filter((id) => queries.has(id))
    .slice(0, options.maxQueries ?? Number.MAX_SAFE_INTEGER);

  const engine = Engine.open({
    home: join(dir, 'home'),
    modelDir: options.modelDir ?? join(dir, 'no-model'),
  });
  try {
    log(
      `\n[quality] SciFact: indexing ${corpus.length} docs (model ${options.modelDir ? options.modelDir : 'off'})`,
    );
    const t0 = performance.now();
    await engine.add([docsDir]);
    await engine.index();
    const indexSeconds = round((performance.now() - t0) / 1000, 1);
    const state = engine.embedder.state();
    const model = state.status === 'on' ? engine.embedder.modelId() : null;
    const pathStmt = engine.db.prepare('SELECT canonical_value AS path FROM items WHERE id = ?');
    const pathOf = (fileId: string) =>
      (pathStmt.get(fileId) as { path: string | null } | undefined)?.path ?? null;
    const modes: SearchMode[] = model ? ['keyword', 'vector', 'hybrid'] : ['keyword'];
    const scores: ModeScore[] = [];
    for (const mode of modes) {
      let ndcg = 0;
      let recall = 0;
      const t = performance.now();
      for (const id of testIds) {
        const result = await engine.search(queries.get(id) ?? '', { k: 100, maxK: 100, mode });
        const ranked = collapse(result.hits, pathOf);
        const relevant = qrels.get(id) ?? new Set<string>();
        ndcg += ndcgAt(ranked, relevant, 10);
        recall += recallAt(ranked, relevant, 100);
      }
      scores.push({
        mode,
        ndcg10: round(ndcg / testIds.length, 4),
        recall100: round(recall / testIds.length, 4),
        queries: testIds.length,
        msPerQuery: round((performance.now() - t) / testIds.length),
      });
      log(`  ${mode}: done`);
    }
    const isTiny = !!model && /tiny/i.test(`${model} ${options.modelDir ?? ''}`);
    const modelNote = !model
      ? 'no model (set BRAIN_MODEL_DIR for vector and hybrid)'
      : isTiny
        ? 'TINY TEST MODEL: vector and hybrid numbers are meaningless, only the code path is exercised'
        : `model ${model}`;
    return { docs: corpus.length, queries: testIds.length, indexSeconds, model, modelNote, scores };
  } finally {
    await engine.close();
  }
}
