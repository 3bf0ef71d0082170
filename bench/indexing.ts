/**
 * Part 2, indexing throughput through the real engine (engine.add + engine.index, model off):
 * generated Markdown in MB/s, and real PDFs (copied from the shared fixtures) in pages/s.
 * Generated CSV, HTML and PPTX (bench/formats.ts) in MB of files per second.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Engine } from '#engine/engine.ts';
import { indexText } from '#engine/search/scripts.ts';
import { vocabulary } from './corpus.ts';
import { type Written, writeCsv, writeHtml, writePptx } from './formats.ts';
import { mb, rng, round, zipfSampler } from './util.ts';

const PDF_FIXTURES: readonly { file: string; pages: number }[] = [
  { file: 'pdfjs-tracemonkey.pdf', pages: 14 },
  { file: 'pdfjs-pdkids.pdf', pages: 55 },
  { file: 'sf-GeoTopo-komprimiert.pdf', pages: 117 },
];
const PDF_DIR = '/work/shared/fixtures/pdf';

type TextRun = {
  files: number;
  mb: number;
  addSeconds: number;
  indexSeconds: number;
  mbPerSecond: number;
  sections: number;
  failed: number;
  /**
   * The baseline: FTS5 alone indexing the same sections (label and body, with the engine's own
   * text folding) into an in-memory table with the same tokenizer, in one transaction, in MB of
   * the files per second.
   */
  fts5MbPerSecond: number;
};

export type IndexingResult = {
  markdown: TextRun;
  /** The same generated files as plain .txt: the other chunking path (1000 characters, 100 overlap). */
  text: TextRun;
  /** Generated CSV exports, saved web pages and slide decks, in MB of the files per second. */
  formats: (TextRun & { format: string })[];
  pdf: {
    files: number;
    pages: number;
    addSeconds: number;
    indexSeconds: number;
    pagesPerSecond: number;
    sections: number;
    failed: number;
  } | null;
};

/** Markdown files of about `fileKb` each: headings, paragraphs, lists and the odd code block. */
function writeMarkdown(dir: string, totalMb: number, fileKb: number): Written {
  mkdirSync(dir, { recursive: true });
  const vocab = vocabulary();
  const rand = rng(11);
  const zipf = zipfSampler(vocab.length, 1.05, rand);
  const words = (n: number) => Array.from({ length: n }, () => vocab[zipf()]).join(' ');
  let bytes = 0;
  let files = 0;
  while (bytes < totalMb * 1024 * 1024) {
    const parts: string[] = [`# ${words(4)}\n`];
    let size = 0;
    while (size < fileKb * 1024) {
      const r = rand();
      let block: string;
      if (r < 0.12) block = `## ${words(3 + Math.floor(rand() * 4))}\n`;
      else if (r < 0.18) block = `### ${words(3)}\n`;
      else if (r < 0.28)
        block = Array.from({ length: 3 + Math.floor(rand() * 4) }, () => `- ${words(6)}`).join('\n');
      else if (r < 0.31) block = `\`\`\`\n${words(12)}\n${words(9)}\n\`\`\``;
      else block = `${words(40 + Math.floor(rand() * 80))}.`;
      parts.push(block);
      size += block.length + 2;
    }
    const text = `${parts.join('\n\n')}\n`;
    writeFileSync(join(dir, `doc-${String(files).padStart(5, '0')}.md`), text);
    bytes += Buffer.byteLength(text);
    files++;
  }
  return { files, bytes };
}

function textRun(written: Written, run: Awaited<ReturnType<typeof timedIndex>>): TextRun {
  const { fts5Seconds, ...counts } = run;
  return {
    files: written.files,
    mb: round(mb(written.bytes)),
    ...counts,
    mbPerSecond: round(mb(written.bytes) / (run.addSeconds + run.indexSeconds)),
    fts5MbPerSecond: round(mb(written.bytes) / fts5Seconds),
  };
}

/** Seconds FTS5 alone takes to index these sections in memory (see TextRun.fts5MbPerSecond). */
function fts5Alone(sections: readonly { label: string; body: string }[]): number {
  const mem = new Database(':memory:');
  try {
    mem.exec(
      "CREATE VIRTUAL TABLE f USING fts5 (label, body, tokenize = 'porter unicode61 remove_diacritics 2')",
    );
    const insert = mem.prepare('INSERT INTO f (rowid, label, body) VALUES (?, ?, ?)');
    const t = performance.now();
    mem.transaction(() => {
      sections.forEach((r, i) => {
        insert.run(i + 1, indexText(r.label), indexText(r.body));
      });
    })();
    return (performance.now() - t) / 1000;
  } finally {
    mem.close();
  }
}

async function timedIndex(home: string, folder: string, modelDir: string) {
  const engine = Engine.open({ home, modelDir });
  try {
    const t0 = performance.now();
    await engine.add([folder]);
    const t1 = performance.now();
    await engine.index();
    const t2 = performance.now();
    const count = (sql: string) => (engine.db.prepare(sql).get() as { n: number }).n;
    const sections = engine.db
      .prepare("SELECT label, body FROM items WHERE storage_kind = 'section' AND retired_at IS NULL")
      .all() as { label: string; body: string }[];
    return {
      fts5Seconds: fts5Alone(sections),
      addSeconds: round((t1 - t0) / 1000),
      indexSeconds: round((t2 - t1) / 1000),
      sections: count(
        "SELECT count(*) AS n FROM items WHERE storage_kind = 'section' AND retired_at IS NULL",
      ),
      failed: count("SELECT count(*) AS n FROM items WHERE storage_kind = 'file' AND indexed = 0"),
    };
  } finally {
    await engine.close();
  }
}

export async function runIndexing(options: {
  dir: string;
  markdownMb: number;
  /** MB of each of CSV, HTML and PPTX. */
  formatMb: number;
  pdfCopies: number;
  log: (m: string) => void;
}): Promise<IndexingResult> {
  const { dir, log } = options;
  rmSync(dir, { recursive: true, force: true });
  const noModel = join(dir, 'no-model'); // a folder without model files: semantic search off
  log(`\n[index] writing ~${options.markdownMb} MB of Markdown`);
  const md = writeMarkdown(join(dir, 'md'), options.markdownMb, 48);
  log(`  ${md.files} files, ${mb(md.bytes).toFixed(1)} MB; adding and indexing`);
  const mdRun = await timedIndex(join(dir, 'home-md'), join(dir, 'md'), noModel);
  const markdown = textRun(md, mdRun);
  const txtDir = join(dir, 'txt');
  mkdirSync(txtDir, { recursive: true });
  for (const name of readdirSync(join(dir, 'md'))) {
    copyFileSync(join(dir, 'md', name), join(txtDir, name.replace(/\.md$/, '.txt')));
  }
  log(`  the same ${md.files} files as plain text; adding and indexing`);
  const text = textRun(md, await timedIndex(join(dir, 'home-txt'), txtDir, noModel));

  const formats: IndexingResult['formats'] = [];
  const writers: [string, (d: string, m: number) => Written | Promise<Written>][] = [
    ['CSV', writeCsv],
    ['HTML', writeHtml],
    ['PPTX', writePptx],
  ];
  for (const [format, write] of writers) {
    const folder = join(dir, format.toLowerCase());
    const written = await write(folder, options.formatMb);
    log(`  ${format}: ${written.files} files, ${mb(written.bytes).toFixed(1)} MB; adding and indexing`);
    const run = await timedIndex(join(dir, `home-${format.toLowerCase()}`), folder, noModel);
    formats.push({ format, ...textRun(written, run) });
  }

  let pdf: IndexingResult['pdf'] = null;
  const available = PDF_FIXTURES.filter((p) => existsSync(join(PDF_DIR, p.file)));
  if (available.length > 0) {
    const pdfDir = join(dir, 'pdf');
    mkdirSync(pdfDir, { recursive: true });
    let pages = 0;
    let files = 0;
    for (let copy = 0; copy < options.pdfCopies; copy++) {
      for (const p of available) {
        // Distinct names make distinct items (the same bytes are stored once).
        copyFileSync(join(PDF_DIR, p.file), join(pdfDir, `copy${copy}-${p.file}`));
        pages += p.pages;
        files++;
      }
    }
    const bytes = available.reduce((s, p) => s + statSync(join(PDF_DIR, p.file)).size, 0) * options.pdfCopies;
    log(`  PDFs: ${files} files, ${pages} pages, ${mb(bytes).toFixed(1)} MB; adding and indexing`);
    const run = await timedIndex(join(dir, 'home-pdf'), pdfDir, noModel);
    const { fts5Seconds: _, ...counts } = run;
    pdf = { files, pages, ...counts, pagesPerSecond: round(pages / (run.addSeconds + run.indexSeconds)) };
  }
  return { markdown, text, formats, pdf };
}
