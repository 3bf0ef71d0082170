/**
 * A generated corpus for the search-speed benchmark, inserted straight into a fresh workspace
 * database (no ingest, no model): sections grouped into files, some notes, a few scopes, bodies
 * drawn from a Zipf-distributed vocabulary, and random unit vectors under one model id.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Db, ENGINE_CACHE_KIB, openDb } from '#engine/db/driver.ts';
import { vecBlob } from '#engine/read/items.ts';
import { EMBED_DIM } from '#shared/constants.ts';
import { gaussian, randomUnitVector, rng, zipfSampler } from './util.ts';

export const BENCH_MODEL = 'bench/random-unit-384';
/** The scopes a benchmark reader can see; `team:sales` rows exist but must never come back. */
export const READER_SCOPES = ['org', 'user:bench', 'team:eng'] as const;
const SCOPE_MIX: readonly [string, number][] = [
  ['org', 0.7],
  ['team:eng', 0.1],
  ['team:sales', 0.1],
  ['user:bench', 0.1],
];
const VOCAB_SIZE = 20_000;
const ZIPF_S = 1.05;
const WORDS_PER_SECTION = 150;
const SECTIONS_PER_FILE = 20;
const NOTES_PER_SECTIONS = 50; // one note per 50 sections

const SYLLABLES = (
  'ba be bi bo bu ca ce ci co cu da de di do du fa fe fi fo fu ga ge gi go gu ha he hi ho hu ja je jo ka ke ki ' +
  'ko ku la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po pu ra re ri ro ru sa se si so su ta te ti to ' +
  'tu va ve vi vo vu za ze zi zo zu bra cre dri fro glu kle pro stu tri vel mar son tan rin gol per lex quo'
).split(' ');

/** A deterministic vocabulary of distinct pseudo-words, most frequent first. */
export function vocabulary(size = VOCAB_SIZE, seed = 7): string[] {
  const rand = rng(seed);
  const seen = new Set<string>();
  const words: string[] = [];
  while (words.length < size) {
    const n = 1 + Math.floor(rand() * 3) + (words.length > 200 ? 1 : 0);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    if (w.length < 3 || seen.has(w)) continue;
    seen.add(w);
    words.push(w);
  }
  return words;
}

export type Corpus = { db: Db; dir: string; sections: number; files: number; notes: number; vocab: string[] };

export type BuildOptions = { sections: number; dir: string; seed?: number; log?: (msg: string) => void };

/** Builds (or reuses, when the same size was built before in `dir`) a workspace database. */
export function buildCorpus(options: BuildOptions): Corpus {
  const { sections, dir } = options;
  const log = options.log ?? (() => undefined);
  const vocab = vocabulary();
  const files = Math.ceil(sections / SECTIONS_PER_FILE);
  const notes = Math.ceil(sections / NOTES_PER_SECTIONS);
  const path = join(dir, `corpus-${sections}.db`);
  if (existsSync(path)) {
    const db = openDb(path);
    const done = db.prepare("SELECT value FROM meta WHERE key = 'bench_complete'").get() as
      | { value: string }
      | undefined;
    if (done?.value === String(sections)) {
      log(`reusing ${path}`);
      return { db, dir, sections, files, notes, vocab };
    }
    db.close();
  }
  mkdirSync(dir, { recursive: true });
  for (const suffix of ['', '-wal', '-shm', '.mirror-file', '.mirror-section', '.mirror-note'])
    rmSync(path + suffix, { force: true });
  const db = openDb(path);
  db.pragma('cache_size = -262144');
  db.prepare("INSERT INTO meta (key, value) VALUES ('workspace_id', 'bench')").run();

  const rand = rng(options.seed ?? 42);
  const normal = gaussian(rand);
  const zipf = zipfSampler(vocab.length, ZIPF_S, rand);
  const pickScope = () => {
    let u = rand();
    for (const [scope, p] of SCOPE_MIX) {
      if (u < p) return scope;
      u -= p;
    }
    return 'org';
  };
  const text = (words: number) => {
    const out: string[] = [];
    for (let i = 0; i < words; i++) out.push(vocab[zipf()] ?? 'x');
    return out.join(' ');
  };
  const day = 86_400_000;
  const base = Date.UTC(2025, 0, 1);
  const isoDay = () => new Date(base + Math.floor(rand() * 365) * day).toISOString();

  const insertItem = db.prepare(
    `INSERT INTO items (rowid, id, workspace_id, storage_kind, kind, label, body, source_key, file_id, ordinal,
       indexed, scope, origin_actor, origin_source, origin_at, occurred_at, embedded_model, created_at, updated_at)
     VALUES (?, ?, 'bench', ?, ?, ?, ?, ?, ?, ?, 1, ?, 'bench', 'bench', ?, ?, ?, ?, ?)`,
  );
  const insertFts = db.prepare('INSERT INTO items_fts (rowid, label, body) VALUES (?, ?, ?)');
  const insertVec = db.prepare(
    `INSERT INTO vec_items (item_rowid, stream, scope, model, embedding, embedding_bq)
     VALUES (?, ?, ?, ?, ?, vec_quantize_binary(?))`,
  );
  let rowid = 0;
  const add = (
    storage: 'file' | 'section' | 'note',
    label: string,
    body: string,
    scope: string,
    fileId: string | null,
    ordinal: number | null,
  ) => {
    rowid += 1;
    const id = `${storage}-${rowid}`;
    const when = isoDay();
    insertItem.run(
      rowid,
      id,
      storage,
      storage === 'note' ? 'note' : 'text',
      label,
      body,
      id,
      fileId,
      ordinal,
      scope,
      when,
      when,
      BENCH_MODEL,
      when,
      when,
    );
    insertFts.run(rowid, label, body);
    const v = vecBlob(randomUnitVector(normal, EMBED_DIM));
    insertVec.run(BigInt(rowid), storage, scope, BENCH_MODEL, v, v);
    return id;
  };

  const started = performance.now();
  const batch = 5000;
  let made = 0;
  let notesMade = 0;
  const tx = db.transaction((count: number) => {
    for (let i = 0; i < count; i++) {
      if (made % SECTIONS_PER_FILE === 0) {
        const scope = pickScope();
        const fileId = add('file', `${text(3)}.md`, text(WORDS_PER_SECTION), scope, null, null);
        currentFile = { id: fileId, scope };
      }
      add(
        'section',
        text(4),
        text(WORDS_PER_SECTION),
        currentFile.scope,
        currentFile.id,
        made % SECTIONS_PER_FILE,
      );
      made += 1;
      if (made % NOTES_PER_SECTIONS === 0 && notesMade < notes) {
        add('note', text(5), text(60), pickScope(), null, null);
        notesMade += 1;
      }
    }
  });
  let currentFile = { id: '', scope: 'org' };
  while (made < sections) {
    tx(Math.min(batch, sections - made));
    if (made % 50_000 === 0 || made === sections) {
      log(
        `  ${made.toLocaleString()} sections inserted (${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
    }
  }
  db.exec("INSERT INTO items_fts (items_fts) VALUES ('optimize')");
  db.prepare("INSERT INTO meta (key, value) VALUES ('bench_complete', ?)").run(String(sections));
  // The vectors went in straight, past the engine's generation (src/engine/read/items.ts): roll
  // it, as the engine's writes do, so that no mirror file names this database's state before.
  db.prepare("UPDATE meta SET value = 'g' || lower(hex(randomblob(8))) WHERE key = 'vec_generation'").run();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('ANALYZE');
  log(`  built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // Searches are timed with the engine's own cache, not the one the build used.
  db.pragma(`cache_size = -${ENGINE_CACHE_KIB}`);
  return { db, dir, sections, files, notes, vocab };
}
