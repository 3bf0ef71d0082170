/**
 * `npm run bench`: search speed, indexing throughput and retrieval quality, printed as tables
 * beside baselines and references measured in the same run, and written to
 * bench/results/latest.json. Figures, never timed assertions. See bench/README.md.
 *
 *   --sizes 10000,100000   corpus sizes for the speed part (default 10k and 100k)
 *   --million              also 1M sections
 *   --quick                a smoke run (2k sections, 40 queries, 3 MB Markdown, 30 SciFact queries)
 *   --only speed|injection|index|add|quality|sync|trees|ocr
 *   --keep                 keep generated speed corpora in bench/results/corpora for the next run
 */

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AddBenchResult, printAdd, runAddBench } from './add.ts';
import { CORPUS_DIR, type CorpusQualityResult, runCorpusQuality } from './corpus-quality.ts';
import { type IndexingResult, runIndexing } from './indexing.ts';
import { type InjectionBenchResult, runInjectionBench } from './injection.ts';
import {
  FIXTURES_DIR,
  type MultilingualResult,
  multilingualFixturesPresent,
  runMultilingualQuality,
} from './multilingual-quality.ts';
import { type OcrBenchRow, type RussianOcrRow, runOcrBench, runRussianOcr, scansPresent } from './ocr.ts';
import { type QualityResult, runQuality } from './quality.ts';
import { runSpeed, type SpeedResult } from './speed.ts';
import { runSyncServerBench, type SyncServerBenchRow } from './sync-server.ts';
import { runTreesBench, type TreesBenchResult } from './trees.ts';
import { printTable, round } from './util.ts';

type Args = { sizes: number[]; quick: boolean; only: string | null; keep: boolean };

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { sizes: [10_000, 100_000], quick: false, only: null, keep: false };
  let million = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--sizes')
      args.sizes = (argv[++i] ?? '')
        .split(',')
        .map((s) => Number(s.replace(/_/g, '')))
        .filter((n) => n > 0);
    else if (a === '--million') million = true;
    else if (a === '--quick') args.quick = true;
    else if (a === '--keep') args.keep = true;
    else if (a === '--only') args.only = argv[++i] ?? null;
    else if (a === '--help' || a === '-h') {
      console.log(
        'usage: npm run bench -- [--sizes 10000,100000] [--million] [--quick] [--only speed|injection|index|add|quality|sync|trees|ocr] [--keep]',
      );
      process.exit(0);
    } else {
      console.error(`unknown argument ${a}`);
      process.exit(2);
    }
  }
  if (args.quick) args.sizes = [2_000];
  if (million && !args.sizes.includes(1_000_000)) args.sizes.push(1_000_000);
  if (
    args.only &&
    !['speed', 'injection', 'index', 'add', 'quality', 'sync', 'trees', 'ocr'].includes(args.only)
  ) {
    console.error('--only takes speed, injection, index, add, quality, sync, trees or ocr');
    process.exit(2);
  }
  return args;
}

const here = dirname(fileURLToPath(import.meta.url));
const log = (m: string) => console.log(m);

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const results = join(here, 'results');
  mkdirSync(results, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'brain-bench-'));
  const corpora = args.keep ? join(results, 'corpora') : join(scratch, 'corpora');
  const machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGb: round(totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
  console.log(
    `Org Brain bench: ${machine.cpus} cores (${machine.cpu}), ${machine.memoryGb} GB, Node ${machine.node}`,
  );
  const out: {
    at: string;
    machine: typeof machine;
    args: Args;
    speed?: SpeedResult[];
    injection?: InjectionBenchResult;
    indexing?: IndexingResult;
    add?: AddBenchResult;
    quality?: QualityResult;
    corpusQuality?: CorpusQualityResult;
    multilingual?: MultilingualResult;
    sync?: SyncServerBenchRow[];
    trees?: TreesBenchResult;
    ocr?: OcrBenchRow[];
    ocrRussian?: RussianOcrRow[];
  } = { at: new Date().toISOString(), machine, args };
  const save = () => writeFileSync(join(results, 'latest.json'), `${JSON.stringify(out, null, 2)}\n`);

  try {
    if (!args.only || args.only === 'speed') {
      out.speed = [];
      for (const sections of args.sizes) {
        out.speed.push(runSpeed({ sections, queries: args.quick ? 40 : 200, dir: corpora, log }));
        save();
      }
      printSpeed(out.speed);
    }
    if (!args.only || args.only === 'injection') {
      // Read injection (brain_context) beside plain search, on the largest corpus of the speed part.
      out.injection = await runInjectionBench({
        sections: args.quick ? 2_000 : Math.min(100_000, Math.max(...args.sizes)),
        queries: args.quick ? 40 : 200,
        dir: corpora,
        log,
      });
      save();
    }
    if (!args.only || args.only === 'index') {
      out.indexing = await runIndexing({
        dir: join(scratch, 'index'),
        markdownMb: args.quick ? 3 : 30,
        formatMb: args.quick ? 1 : 8,
        pdfCopies: args.quick ? 1 : 2,
        log,
      });
      save();
      printIndexing(out.indexing);
    }
    if (!args.only || args.only === 'add') {
      out.add = await runAddBench({
        dir: join(scratch, 'add'),
        files: args.quick ? 2_000 : 10_000,
        bigMb: args.quick ? 10 : 50,
        log,
      });
      save();
      printAdd(out.add);
    }
    if (!args.only || args.only === 'quality') {
      out.quality = await runQuality({
        dir: join(scratch, 'quality'),
        modelDir: process.env.BRAIN_MODEL_DIR || undefined,
        maxQueries: args.quick ? 30 : undefined,
        log,
      });
      save();
      printQuality(out.quality);
      // Questions over a real Markdown corpus (handbook + ADR docs), keyword mode, top 5.
      if (existsSync(CORPUS_DIR)) {
        out.corpusQuality = await runCorpusQuality({ dir: join(scratch, 'corpus-quality'), log });
        save();
        printCorpusQuality(out.corpusQuality);
      } else {
        console.log(`\n[quality] corpus questions skipped: ${CORPUS_DIR} is missing`);
      }
      // German, Japanese and Chinese questions over the fixtures in those languages.
      if (multilingualFixturesPresent()) {
        out.multilingual = await runMultilingualQuality({ dir: join(scratch, 'multilingual'), log });
        save();
        printMultilingual(out.multilingual);
      } else {
        console.log(`\n[quality] multilingual questions skipped: ${FIXTURES_DIR} is missing`);
      }
    }
    if (!args.only || args.only === 'sync') {
      // Push/pull through the workspace server, on PGlite and (when installed) PostgreSQL.
      out.sync = await runSyncServerBench({
        log,
        ...(args.quick ? { ops: 1000, clients: 4, opsPerClient: 100 } : {}),
      });
      save();
    }
    if (!args.only || args.only === 'trees') {
      out.trees = await runTreesBench({
        dir: join(scratch, 'trees'),
        documents: args.quick ? 2_000 : 20_000,
        queries: args.quick ? 40 : 200,
        log,
      });
      save();
      printTrees(out.trees);
    }
    if (!args.only || args.only === 'ocr') {
      if (scansPresent()) {
        out.ocr = await runOcrBench({ log });
        save();
        printOcr(out.ocr);
        out.ocrRussian = await runRussianOcr({ log });
        save();
        printRussianOcr(out.ocrRussian);
      } else {
        console.log('\n[ocr] skipped: the scanned fixtures in shared/fixtures/pdf are missing');
      }
    }
  } finally {
    save();
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`\nwrote ${join(results, 'latest.json')}`);
}

function printOcr(rows: OcrBenchRow[]): void {
  printTable(
    'OCR of the scanned fixtures (character error rate against bench/ocr-reference, one thread)',
    ['engine', 'CER', 'pages', 's/page', 'pages/s', 'install MB', 'languages'],
    rows.map((r) => [
      r.engine,
      r.cer,
      r.pages,
      r.secondsPerPage,
      round(1 / r.secondsPerPage, 3),
      r.installMb,
      r.languages,
    ]),
  );
}

function printRussianOcr(rows: RussianOcrRow[]): void {
  printTable(
    'The Russian form scan (pdfjs-issue7229): phrases a person reads on it found in the OCR text (tesseract.js)',
    ['read in', 'pages', 's/page', 'phrases found', 'of'],
    rows.map((r) => [
      r.language === 'rus' ? 'rus (shipped, tessdata_fast)' : 'eng (same-run baseline)',
      r.pages,
      r.secondsPerPage,
      `${round(r.wordsFound * 100, 1)} %`,
      r.words,
    ]),
  );
}

function printTrees(r: TreesBenchResult): void {
  printTable(
    'Repository trees: builds against git ls-files + reading every blob (ms)',
    [
      'documents',
      'nodes',
      'baseline',
      'whole build',
      'target',
      'whole / baseline',
      'one-file baseline',
      'one-file build (median / max)',
      'target',
      'one-file / baseline',
    ],
    [
      [
        r.documents,
        r.nodes,
        r.baselineMs,
        r.wholeMs,
        r.documents >= 20_000 ? '<= 60000' : '',
        round(r.wholeMs / Math.max(1, r.baselineMs)),
        r.incrementalBaselineMs,
        `${r.incrementalMs} / ${r.incrementalMaxMs}${r.incrementalWasIncremental ? (r.incrementalFromMemo ? '' : ' (not from the memo)') : ' (whole)'}`,
        '<= 1000',
        round(r.incrementalMs / Math.max(1, r.incrementalBaselineMs)),
      ],
    ],
  );
  printTable(
    'Repository tree reads (ms)',
    ['read', 'p50', 'p95', 'max'],
    [
      ['tree (100 children)', r.tree.p50, r.tree.p95, r.tree.max],
      ['read (a document)', r.read.p50, r.read.p95, r.read.max],
      ['grep (under a folder)', r.grep.p50, r.grep.p95, r.grep.max],
    ],
  );
}

function printSpeed(runs: readonly SpeedResult[]): void {
  printTable(
    'Search speed: whole search() = 6 streams + fusion, query embedding excluded (ms)',
    [
      'sections',
      'items',
      'queries',
      'p50',
      'p95',
      'target p95',
      'kw 3 streams p50/p95',
      'vec 3 streams p50/p95',
      'mirror build / from file',
      'first search',
      'target first',
      'RSS MB',
      'target RSS',
    ],
    runs.map((r) => [
      r.sections,
      r.items,
      r.queries,
      r.search.p50,
      r.search.p95,
      r.sections >= 1_000_000 ? '<= 30' : r.sections >= 100_000 ? '<= 10' : '',
      `${r.keywordStreams.p50} / ${r.keywordStreams.p95}`,
      `${r.vectorStreams.p50} / ${r.vectorStreams.p95}`,
      `${r.mirrorLoadMs} / ${r.mirrorFileLoadMs}`,
      r.firstSearchMs,
      r.sections >= 1_000_000 ? '<= 2000' : '',
      r.rssMb,
      r.sections >= 1_000_000 ? '<= 1536' : r.sections >= 100_000 ? '<= 400' : '',
    ]),
  );
  printTable(
    'Baselines on the same data (ms)',
    [
      'sections',
      'vec0 float KNN p50/p95',
      'FTS5 OR p50/p95',
      'memcpy N x 384 f32',
      'JS dot scan N x 384',
      'search p95 / vec0 p50',
    ],
    runs.map((r) => [
      r.sections,
      `${r.baselines.vec0FloatKnn.p50} / ${r.baselines.vec0FloatKnn.p95}`,
      `${r.baselines.fts5Or.p50} / ${r.baselines.fts5Or.p95}`,
      r.baselines.memoryPassMs,
      r.baselines.jsDotScanMs,
      round(r.search.p95 / r.baselines.vec0FloatKnn.p50),
    ]),
  );
  printTable(
    'Fast streams vs exact streams (section stream, top 50)',
    [
      'sections',
      'vector recall@50',
      'keyword overlap@50 (ties equal)',
      'target overlap',
      'strict overlap',
      'queries',
    ],
    runs.map((r) => [
      r.sections,
      r.recall.vectorAt50,
      r.recall.keywordAt50,
      r.sections >= 100_000 ? '>= 0.9' : '',
      r.recall.keywordStrictAt50,
      r.recall.vectorQueries,
    ]),
  );
}

function printIndexing(r: IndexingResult): void {
  const rows: unknown[][] = (
    [
      ['Markdown', r.markdown, '>= 15 MB/s'],
      ['Plain text', r.text, '>= 15 MB/s'],
      ...(r.formats ?? []).map((f) => [f.format, f, ''] as const),
    ] as const
  ).map(([name, t, target]) => [
    name,
    t.files,
    `${t.mb} MB`,
    t.sections,
    t.failed,
    t.addSeconds,
    t.indexSeconds,
    `${t.mbPerSecond} MB/s`,
    target,
    `${t.fts5MbPerSecond} MB/s`,
    round(t.mbPerSecond / t.fts5MbPerSecond),
  ]);
  if (r.pdf) {
    rows.push([
      'PDF',
      r.pdf.files,
      `${r.pdf.pages} pages`,
      r.pdf.sections,
      r.pdf.failed,
      r.pdf.addSeconds,
      r.pdf.indexSeconds,
      `${r.pdf.pagesPerSecond} pages/s`,
      '',
      '',
      '',
    ]);
  }
  printTable(
    'Indexing throughput (engine.add + engine.index, model off)',
    [
      'input',
      'files',
      'size',
      'sections',
      'failed',
      'add s',
      'index s',
      'throughput',
      'target',
      'FTS5 alone in memory',
      'ratio',
    ],
    rows,
  );
}

function printQuality(r: QualityResult): void {
  printTable(
    `SciFact (${r.docs} docs, ${r.queries} test queries, k = 100; ${r.modelNote})`,
    ['mode', 'nDCG@10', 'Recall@100', 'ms/query', 'reference nDCG@10'],
    [
      ...r.scores.map((s) => [
        s.mode,
        s.ndcg10,
        s.recall100,
        s.msPerQuery,
        s.mode === 'keyword' ? 'target >= 0.70' : s.mode === 'vector' ? 'MiniLM-L6-v2 0.645' : 'RRF ~0.714',
      ]),
      ['ref: BM25 (BEIR / Anserini)', '0.665-0.679', '0.925', '', ''],
      ['ref: SQLite FTS5 porter, here', '0.687', '0.9253', '', ''],
    ],
  );
}

function printMultilingual(r: MultilingualResult): void {
  const pct = (x: number) => `${round(x * 100, 1)} %`;
  const names: Record<string, string> = { de: 'German', ja: 'Japanese', zh: 'Chinese' };
  printTable(
    `Questions not in English (keyword-only, k = 5; ${r.files} fixtures, indexed in ${r.indexSeconds} s)`,
    ['language', 'questions', 'answer in top 5', 'plain FTS5 (before [R7])', 'ratio'],
    [...Object.entries(r.byLang), ['all', r.all] as const].map(([lang, s]) => [
      names[lang] ?? lang,
      s.questions,
      pct(s.answered),
      pct(s.baseline),
      s.baseline > 0 ? `${round(s.answered / s.baseline, 2)}x` : 'n/a',
    ]),
  );
  for (const m of r.misses) console.log(`  missed [${m.lang}] ${m.q} -> ${m.top.join(' | ') || '(nothing)'}`);
}

function printCorpusQuality(r: CorpusQualityResult): void {
  const pct = (x: number | null) => (x === null ? 'n/a' : `${round(x * 100, 1)} %`);
  printTable(
    `Corpus questions (${r.questions}, keyword-only; ${r.files} Markdown files, k = 5)`,
    ['figure', 'value', 'target'],
    [
      ['answer in top 5', pct(r.answeredTop5), '>= 85 %'],
      [`like-worded (${r.like})`, pct(r.answeredTop5Like), ''],
      [`unlike-worded (${r.unlike})`, pct(r.answeredTop5Unlike), ''],
      ['  (answer in a shown or folded passage)', pct(r.answeredTop5AnyPassage), ''],
      ['right file in top 5', pct(r.fileTop5), ''],
      ['right file or an identical copy in top 5', pct(r.fileTop5SameText), ''],
      ['repeated files in top 5, per question', r.duplicates, '0'],
      ['ms/query', r.msPerQuery, ''],
    ],
  );
  if (r.misses.length > 0) {
    console.log(`\nMissed (first ${r.misses.length}): question [worded] -> top-5 labels`);
    for (const m of r.misses) {
      const where = `${m.worded}; ${m.file}${m.inFolded ? '; answer only in a folded passage' : ''}`;
      console.log(`  - ${m.q} [${where}]\n      ${m.top.join(' | ') || '(no hits)'}`);
    }
  }
}

await main();
