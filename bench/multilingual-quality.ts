/**
 * Part 3c, text that is not English ([R7] in docs/RETRIEVAL.md): German, Japanese and Chinese
 * files from /work/shared/fixtures (lecture notes in German, a Japanese workbook, the UDHR's first
 * article in many languages, a Chinese README) are added and indexed through the engine (model
 * off), and every question of bench/multilingual-questions.json, asked in the file's language,
 * runs in keyword mode with k = 5. A question is answered when a top-5 hit's body holds all of
 * its answer strings. The same-run baseline is plain FTS5 (porter unicode61, diacritics removed:
 * the index before [R7]) over the very same item texts, asked the same words.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Engine } from '#engine/engine.ts';
import { round } from './util.ts';

export const FIXTURES_DIR = '/work/shared/fixtures';
const QUESTIONS = join(dirname(fileURLToPath(import.meta.url)), 'multilingual-questions.json');
const K = 5;

type Question = { lang: string; file: string; q: string; answer: string[] };
type Share = { questions: number; answered: number; baseline: number };

export type MultilingualResult = {
  files: number;
  indexSeconds: number;
  /** Per language and in all: questions, answered in the top 5 (0-1), and the plain-FTS5 baseline. */
  byLang: Record<string, Share>;
  all: Share;
  misses: { lang: string; q: string; top: string[] }[];
};

const norm = (s: string) => s.replace(/\s+/g, ' ').toLowerCase();
const holds = (body: string, answer: readonly string[]) => answer.every((a) => norm(body).includes(norm(a)));

/** The query words before [R7]: letters and digits, quoted, OR-ed. */
function plainQuery(q: string): string {
  const words = [...new Set(q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  return words.map((w) => `"${w}"`).join(' OR ');
}

export async function runMultilingualQuality(options: {
  dir: string;
  log: (m: string) => void;
  fixturesDir?: string;
}): Promise<MultilingualResult> {
  const { dir, log } = options;
  const fixtures = options.fixturesDir ?? FIXTURES_DIR;
  const questions = JSON.parse(readFileSync(QUESTIONS, 'utf8')) as Question[];
  rmSync(dir, { recursive: true, force: true });
  const files = join(dir, 'files');
  mkdirSync(files, { recursive: true });
  const paths = [...new Set(questions.map((q) => q.file))].map((rel) => {
    const to = join(files, basename(rel));
    copyFileSync(join(fixtures, rel), to);
    return to;
  });

  const engine = Engine.open({ home: join(dir, 'home'), modelDir: join(dir, 'no-model') });
  const plain = new Database(':memory:');
  try {
    log(`\n[quality] multilingual: indexing ${paths.length} fixtures (model off)`);
    const t0 = performance.now();
    await engine.add(paths);
    await engine.index();
    const indexSeconds = round((performance.now() - t0) / 1000, 1);

    plain.exec(
      "CREATE VIRTUAL TABLE t USING fts5 (label, body, tokenize = 'porter unicode61 remove_diacritics 2')",
    );
    const insert = plain.prepare('INSERT INTO t (rowid, label, body) VALUES (?, ?, ?)');
    const rows = engine.db
      .prepare(
        "SELECT rowid, label, body FROM items WHERE indexed = 1 AND storage_kind IN ('file', 'section')",
      )
      .all() as { rowid: number; label: string; body: string }[];
    plain.transaction(() => {
      for (const r of rows) insert.run(r.rowid, r.label, r.body);
    })();
    const plainTop = plain.prepare('SELECT body FROM t WHERE t MATCH ? ORDER BY bm25(t, 2.0, 1.0) LIMIT ?');

    const byLang: Record<string, Share> = {};
    const all: Share = { questions: 0, answered: 0, baseline: 0 };
    const misses: MultilingualResult['misses'] = [];
    for (const question of questions) {
      const share = byLang[question.lang] ?? { questions: 0, answered: 0, baseline: 0 };
      byLang[question.lang] = share;
      const { hits } = await engine.search(question.q, { k: K, maxK: 100, mode: 'keyword' });
      const top = hits.slice(0, K);
      const answered = top.some((h) => holds(h.body ?? '', question.answer));
      const query = plainQuery(question.q);
      const baseline =
        query !== '' &&
        (plainTop.all(query, K) as { body: string }[]).some((r) => holds(r.body, question.answer));
      for (const s of [share, all]) {
        s.questions++;
        if (answered) s.answered++;
        if (baseline) s.baseline++;
      }
      if (!answered) {
        misses.push({
          lang: question.lang,
          q: question.q,
          top: top.map((h) => h.citation?.fileLabel || h.label),
        });
      }
    }
    const asShare = (s: Share): Share => ({
      questions: s.questions,
      answered: round(s.answered / Math.max(1, s.questions), 3),
      baseline: round(s.baseline / Math.max(1, s.questions), 3),
    });
    log('  multilingual: done');
    return {
      files: paths.length,
      indexSeconds,
      byLang: Object.fromEntries(Object.entries(byLang).map(([lang, s]) => [lang, asShare(s)])),
      all: asShare(all),
      misses,
    };
  } finally {
    plain.close();
    await engine.close();
  }
}

export function multilingualFixturesPresent(fixturesDir = FIXTURES_DIR): boolean {
  return existsSync(fixturesDir);
}
