/**
 * Part 3b, retrieval quality on a real Markdown corpus (/work/shared/corpus: an employee handbook
 * and the architecture-decision-record docs): the .md files are copied to a scratch folder, added
 * and indexed through the engine (model off), and every question of bench/corpus-questions.json
 * runs in keyword mode with k = 5. A question is answered when a top-5 hit's body holds all of its
 * answer strings (case-insensitive; curly quotes and whitespace normalised on both sides). Also:
 * the right file in the top 5, and how many top-5 hits repeat a file already shown above them.
 */
import { cpSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine } from '#engine/engine.ts';
import type { SearchHit } from '#shared/types.ts';
import { round } from './util.ts';

export const CORPUS_DIR = '/work/shared/corpus';
const QUESTIONS = join(dirname(fileURLToPath(import.meta.url)), 'corpus-questions.json');
const K = 5;
const MAX_MISSES = 15;

type Question = { q: string; file: string; answer: string[]; worded: 'like' | 'unlike' };

export type CorpusQualityResult = {
  files: number;
  questions: number;
  like: number;
  unlike: number;
  indexSeconds: number;
  /** Shares 0-1 of the questions whose answer passage is in a top-5 hit's body. */
  answeredTop5: number;
  answeredTop5Like: number;
  answeredTop5Unlike: number;
  /**
   * Diagnostic, not the figure: as answeredTop5, but the folded passages of a hit (`hit.also`, the
   * same source's other matches) count too. The gap to answeredTop5 is answers the engine found but
   * did not show as the hit's passage.
   */
  answeredTop5AnyPassage: number;
  /** Share of questions with a top-5 hit from the question's file (path through the file item). */
  fileTop5: number | null;
  /** As fileTop5, but a byte-identical copy of the file (the corpus has some) counts too. */
  fileTop5SameText: number | null;
  /** Mean number of top-5 hits per question whose file already had a hit above them (target 0). */
  duplicates: number;
  msPerQuery: number;
  /** `inFolded`: the answer is in a folded passage (`also`) of a top-5 hit, not in the shown one. */
  misses: { q: string; file: string; worded: string; inFolded: boolean; top: string[] }[];
};

/** Lower case, straight quotes and apostrophes, single spaces. */
function norm(s: string): string {
  return s
    .replace(/[\u2018\u2019\u201a\u201b\u2032\u0060\u00b4]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
    .replace(/[\u2010\u2011\u2012\u2013\u2014]/g, '-')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

function holdsAnswer(hit: SearchHit, answer: readonly string[]): boolean {
  const body = norm(hit.body ?? '');
  return answer.every((a) => body.includes(norm(a)));
}

/** As holdsAnswer, or one of the hit's folded passages (cited without text: read by id) does. */
function holdsAnswerAnywhere(
  hit: SearchHit,
  answer: readonly string[],
  bodyOf: (id: string) => string,
): boolean {
  const folded = (id: string) => answer.every((a) => norm(bodyOf(id)).includes(norm(a)));
  return holdsAnswer(hit, answer) || (hit.also ?? []).some((a) => folded(a.id));
}

function fileIdOf(hit: SearchHit): string | null {
  return hit.citation?.fileId ?? (hit.storageKind === 'file' ? hit.id : null);
}

function copyCorpus(from: string, to: string): number {
  let files = 0;
  cpSync(from, to, {
    recursive: true,
    filter: (src) => {
      if (statSync(src).isDirectory()) return true;
      const keep = src.toLowerCase().endsWith('.md');
      if (keep) files++;
      return keep;
    },
  });
  return files;
}

export async function runCorpusQuality(options: {
  dir: string;
  log: (m: string) => void;
  corpusDir?: string;
}): Promise<CorpusQualityResult> {
  const { dir, log } = options;
  const source = options.corpusDir ?? CORPUS_DIR;
  rmSync(dir, { recursive: true, force: true });
  const corpus = join(dir, 'corpus');
  const files = copyCorpus(source, corpus);
  const questions = JSON.parse(readFileSync(QUESTIONS, 'utf8')) as Question[];

  const engine = Engine.open({ home: join(dir, 'home'), modelDir: join(dir, 'no-model') });
  try {
    log(`\n[quality] corpus: indexing ${files} Markdown files from ${source} (model off)`);
    const t0 = performance.now();
    await engine.add([corpus]);
    await engine.index();
    const indexSeconds = round((performance.now() - t0) / 1000, 1);

    // A file item's canonical_value is the path it was added from; relative to the copy it is the
    // question's `file`.
    const pathStmt = engine.db.prepare('SELECT canonical_value AS path FROM items WHERE id = ?');
    const paths = new Map<string, string | null>();
    const pathOf = (fileId: string): string | null => {
      if (!paths.has(fileId)) {
        const row = pathStmt.get(fileId) as { path: string | null } | undefined;
        const p = row?.path ?? null;
        const rel = p && isAbsolute(p) ? relative(corpus, p) : p;
        paths.set(fileId, rel && !rel.startsWith('..') ? rel.split(sep).join('/') : null);
      }
      return paths.get(fileId) ?? null;
    };
    const bodyStmt = engine.db.prepare('SELECT body FROM items WHERE id = ?');
    const bodyOf = (id: string) => (bodyStmt.get(id) as { body: string } | undefined)?.body ?? '';
    const texts = new Map<string, string | null>();
    const textOf = (rel: string): string | null => {
      if (!texts.has(rel)) {
        const p = join(corpus, rel);
        texts.set(rel, existsSync(p) ? readFileSync(p, 'utf8') : null);
      }
      return texts.get(rel) ?? null;
    };

    let answered = 0;
    let answeredLike = 0;
    let answeredUnlike = 0;
    let answeredAnywhere = 0;
    let rightFile = 0;
    let rightText = 0;
    let pathsKnown = 0;
    let repeats = 0;
    const misses: CorpusQualityResult['misses'] = [];
    let searchMs = 0;
    for (const question of questions) {
      const t = performance.now();
      const result = await engine.search(question.q, { k: K, maxK: 100, mode: 'keyword' });
      searchMs += performance.now() - t;
      const top = result.hits.slice(0, K);

      const hit = top.some((h) => holdsAnswer(h, question.answer));
      if (hit) {
        answered++;
        if (question.worded === 'like') answeredLike++;
        else answeredUnlike++;
      }

      if (hit || top.some((h) => holdsAnswerAnywhere(h, question.answer, bodyOf))) answeredAnywhere++;

      const seen = new Set<string>();
      let known = false;
      let sameFile = false;
      let sameText = false;
      const wanted = textOf(question.file);
      for (const h of top) {
        const id = fileIdOf(h);
        if (!id) continue;
        if (seen.has(id)) repeats++;
        seen.add(id);
        const path = pathOf(id);
        if (!path) continue;
        known = true;
        if (path === question.file) sameFile = true;
        else if (wanted !== null && textOf(path) === wanted) sameText = true;
      }
      if (known) pathsKnown++;
      if (sameFile) rightFile++;
      if (sameFile || sameText) rightText++;

      if (!hit && misses.length < MAX_MISSES) {
        misses.push({
          q: question.q,
          file: question.file,
          worded: question.worded,
          inFolded: top.some((h) => holdsAnswerAnywhere(h, question.answer, bodyOf)),
          top: top.map((h) => {
            const id = fileIdOf(h);
            const path = id ? pathOf(id) : null;
            const label = h.citation?.fileLabel || h.label;
            return path && path !== label ? `${label} [${path}]` : label;
          }),
        });
      }
    }
    const like = questions.filter((q) => q.worded === 'like').length;
    const unlike = questions.length - like;
    const share = (n: number, of: number) => (of > 0 ? round(n / of, 3) : 0);
    const filesKnown = pathsKnown > 0;
    log('  keyword: done');
    return {
      files,
      questions: questions.length,
      like,
      unlike,
      indexSeconds,
      answeredTop5: share(answered, questions.length),
      answeredTop5Like: share(answeredLike, like),
      answeredTop5Unlike: share(answeredUnlike, unlike),
      answeredTop5AnyPassage: share(answeredAnywhere, questions.length),
      fileTop5: filesKnown ? share(rightFile, questions.length) : null,
      fileTop5SameText: filesKnown ? share(rightText, questions.length) : null,
      duplicates: round(repeats / Math.max(1, questions.length), 2),
      msPerQuery: round(searchMs / Math.max(1, questions.length)),
      misses,
    };
  } finally {
    await engine.close();
  }
}
