/**
 * The fast keyword streams of a big index (keyword-stream.ts): a term dropped from the rows to
 * score for being common still counts in the BM25 of the rows the rarer terms found, so the
 * stream ranks them as exact BM25 does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../db/driver.ts';
import { ftsQuery } from './keyword.ts';
import { cachedCount, keywordLists, postingsBudget } from './keyword-stream.ts';

const ROWS = 25_000; // above the size from which terms are shaped
const WORDS = 40;
let dir: string;
let db: Db;
/** The rows holding the rare word and the common one three times. */
const best = [23_751, 24_001, 24_251, 24_501, 24_751];
/** A word in every row of this range and in no other: over the budget, in under half the rows. */
const BURST = [10_000, 16_000] as const;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'brain-kw-'));
  db = openDb(join(dir, 'brain.db'));
  const item = db.prepare(
    `INSERT INTO items (rowid, id, workspace_id, storage_kind, kind, label, body, source_key, file_id, ordinal,
       indexed, scope, origin_actor, origin_source, origin_at, occurred_at, created_at, updated_at)
     VALUES (?, ?, 'ws', 'section', 'text', 'part', ?, ?, NULL, NULL, 1, 'org', 'test', 'test', ?, ?, ?, ?)`,
  );
  const fts = db.prepare('INSERT INTO items_fts (rowid, label, body) VALUES (?, ?, ?)');
  const when = '2026-01-01T00:00:00.000Z';
  db.transaction(() => {
    for (let rowid = 1; rowid <= ROWS; rowid++) {
      // Every body has WORDS words, so BM25 tells rows apart by their terms alone.
      const words: string[] = [];
      if (rowid % 250 === 1) words.push('zebra'); // 100 rows, the rare term
      if (rowid > BURST[0] && rowid <= BURST[1]) words.push('burst'); // 24 % of the rows, all mid-index
      if (best.includes(rowid)) words.push('common', 'common', 'common');
      else if (rowid % 10 < 3 && rowid % 250 !== 1) words.push('common'); // 30 % of the rows
      while (words.length < WORDS) words.push(`filler${words.length}`);
      const body = words.join(' ');
      item.run(rowid, `s-${rowid}`, body, `s-${rowid}`, when, when, when, when);
      fts.run(rowid, 'part', body);
    }
  })();
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The best `n` rows by exact BM25 over every term (label weight 2, as the streams), then rowid. */
const exactTop = (terms: string[], n: number) =>
  (
    db
      .prepare(
        `SELECT rowid FROM items_fts WHERE items_fts MATCH ? ORDER BY bm25(items_fts, 2.0, 1.0), rowid LIMIT ?`,
      )
      .all(ftsQuery(terms), n) as { rowid: number }[]
  ).map((r) => r.rowid);

describe('keyword streams of a big index', () => {
  it('rank the rare term’s rows by every term that weighs, as exact BM25 does', () => {
    const exact = exactTop(['zebra', 'common'], 10);
    expect(exact.slice(0, 5).sort((a, b) => a - b)).toEqual(best);
    const got = keywordLists(db, ['zebra', 'common'], ['org'], 10).section;
    expect(got).toEqual(exact);
  });

  it('a common word is not counted row by row, but its estimate keeps it rescored where it weighs', () => {
    const exact = exactTop(['zebra', 'burst'], 30);
    // The zebra rows inside the burst rank first: 'burst' weighs (IDF ln(19000.5 / 6000.5) ≈ 1.15).
    expect(exact.slice(0, 24).every((r) => r > BURST[0] && r <= BURST[1])).toBe(true);
    expect(keywordLists(db, ['zebra', 'burst'], ['org'], 30).section).toEqual(exact);
    // Counted exactly below the budget, estimated above it: the burst's span times its density.
    expect(cachedCount(db, 'zebra')).toBe(100);
    expect(cachedCount(db, 'burst')).toBe(6_000);
    keywordLists(db, ['zebra', 'common'], ['org'], 10);
    expect(Math.abs((cachedCount(db, 'common') as number) - 7_500) / 7_500).toBeLessThan(0.05);
  });

  it('score at most a share of the rows that grows with the index, from 4,000 to 12,000', () => {
    expect([25_000, 100_000, 200_000, 300_000, 1_000_000].map(postingsBudget)).toEqual([
      4_000, 4_000, 8_000, 12_000, 12_000,
    ]);
  });

  it('a query of common terms only still finds rows (the rarest term always stays)', () => {
    const got = keywordLists(db, ['common', 'filler3'], ['org'], 10).section;
    expect(got).toHaveLength(10);
  });

  it('a row moved out of the scopes leaves the stream at once, and comes back when moved back', () => {
    const rowid = best[0] as number;
    const found = () => keywordLists(db, ['zebra', 'common'], ['org'], 10).section;
    expect(found()).toContain(rowid);
    db.prepare("UPDATE items SET scope = 'user:zoe' WHERE rowid = ?").run(rowid);
    expect(found()).not.toContain(rowid);
    expect(keywordLists(db, ['zebra', 'common'], ['org', 'user:zoe'], 10).section).toContain(rowid);
    db.prepare("UPDATE items SET scope = 'org' WHERE rowid = ?").run(rowid);
    expect(found()).toContain(rowid);
  });

  it('a note written after a search read its rows’ kinds is ranked as a note', () => {
    // The search reads the kinds of the last rows' block, rows 24,576-25,599, of which only
    // those up to 25,000 exist yet.
    expect(keywordLists(db, ['zebra', 'common'], ['org'], 10).section).toContain(best[4]);
    // A note like the 95 sections that hold 'zebra' alone: past the section stream's first 10 (ties
    // go by rowid), so only its own kind can put it in the note stream.
    const body = ['zebra', ...Array.from({ length: WORDS - 1 }, (_, i) => `filler${i + 1}`)].join(' ');
    const when = '2026-01-01T00:00:00.000Z';
    const rowid = Number(
      db
        .prepare(
          `INSERT INTO items (id, workspace_id, storage_kind, kind, label, body, source_key, indexed, scope,
             origin_actor, origin_source, origin_at, created_at, updated_at)
           VALUES ('note-late', 'ws', 'note', 'note', 'part', ?, 'note-late', 1, 'org', 'test', 'test', ?, ?, ?)`,
        )
        .run(body, when, when, when).lastInsertRowid,
    );
    db.prepare("INSERT INTO items_fts (rowid, label, body) VALUES (?, 'part', ?)").run(rowid, body);
    expect(keywordLists(db, ['zebra', 'common'], ['org'], 10).note).toEqual([rowid]);
    db.prepare("INSERT INTO items_fts (items_fts, rowid, label, body) VALUES ('delete', ?, 'part', ?)").run(
      rowid,
      body,
    );
    db.prepare('DELETE FROM items WHERE rowid = ?').run(rowid);
  });

  it('a rowid SQLite gives again to a row of another kind is ranked in that row’s stream', () => {
    const when = '2026-01-01T00:00:00.000Z';
    const add = (kind: string) => {
      db.prepare(
        `INSERT INTO items (rowid, id, workspace_id, storage_kind, kind, label, body, source_key, indexed, scope,
           origin_actor, origin_source, origin_at, created_at, updated_at)
         VALUES (?, ?, 'ws', ?, ?, 'part', 'quagga sighting', ?, 1, 'org', 'test', 'test', ?, ?, ?)`,
      ).run(ROWS + 1, `${kind}-again`, kind, kind, `${kind}-again`, when, when, when);
      db.prepare("INSERT INTO items_fts (rowid, label, body) VALUES (?, 'part', 'quagga sighting')").run(
        ROWS + 1,
      );
    };
    add('section');
    expect(keywordLists(db, ['quagga'], ['org'], 10)).toEqual({ file: [], section: [ROWS + 1], note: [] });
    db.prepare(
      "INSERT INTO items_fts (items_fts, rowid, label, body) VALUES ('delete', ?, 'part', 'quagga sighting')",
    ).run(ROWS + 1);
    db.prepare('DELETE FROM items WHERE rowid = ?').run(ROWS + 1);
    add('note');
    expect(keywordLists(db, ['quagga'], ['org'], 10)).toEqual({ file: [], section: [], note: [ROWS + 1] });
  });
});
