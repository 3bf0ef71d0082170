/** The vector mirror kept beside the database ([R9] in docs/RETRIEVAL.md). */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../db/driver.ts';
import { vecDelete, vecUpsert } from '../read/items.ts';
import { seededRandom as rng, randomUnit as unit } from '../testing/random-vectors.ts';
import { closeMirrorFile, mirrorPath, openMirrorFile, readChunk } from './mirror-file.ts';
import { forgetMirror, mirrorKnn, mirrorLoadStats } from './vector-stream.ts';

const MODEL = 'test/unit-384';
const ROWS = 2500; // three vec0 chunks of 1024 slots

let dir: string;
let db: Db;
const rand = rng(7);
const queries = Array.from({ length: 5 }, () => unit(rand));

function fill(target: Db, from: number, to: number, seed: number) {
  const r = rng(seed);
  target.transaction(() => {
    for (let rowid = from; rowid < to; rowid++)
      vecUpsert(
        target,
        { rowid, storage_kind: 'section', scope: rowid % 5 === 0 ? 'team:eng' : 'org' },
        MODEL,
        unit(r),
      );
  })();
}

const knn = (target: Db, scopes = ['org', 'team:eng']) =>
  queries.map((q) => mirrorKnn(target, q, MODEL, 'section', scopes, 20));

/** What the mirror answers when built from the database alone (no file). */
function fromDatabaseAlone(target: Db) {
  forgetMirror(target);
  rmSync(mirrorPath(target.name, 'section'), { force: true });
  const got = knn(target);
  expect(mirrorLoadStats(target, 'section')?.fromFile).toBe(0);
  return got;
}

const a16 = (n: number) => (n + 15) & ~15;

/** Rewrites a mirror file as version 1 wrote it: no generation, no rowids or sign bits. */
function asVersion1(path: string) {
  const file = openMirrorFile(path);
  if (!file) throw new Error(`no mirror file at ${path}`);
  const entries: { id: number; size: number; hash: string; offset: number }[] = [];
  const parts: Buffer[] = [];
  let offset = 0;
  for (const c of file.chunks.values()) {
    const into = {
      keys: new Int32Array(c.size),
      scale: new Float32Array(c.size),
      quant: new Int8Array(c.size * 384),
    };
    expect(readChunk(file, c, into)).toBe(true);
    const bytes = Buffer.alloc(a16(2 * a16(c.size * 4) + c.size * 384));
    Buffer.from(into.keys.buffer).copy(bytes, 0);
    Buffer.from(into.scale.buffer).copy(bytes, a16(c.size * 4));
    Buffer.from(into.quant.buffer).copy(bytes, 2 * a16(c.size * 4));
    entries.push({ id: c.id, size: c.size, hash: c.hash, offset });
    parts.push(bytes);
    offset += bytes.length;
  }
  closeMirrorFile(file);
  const json = Buffer.from(JSON.stringify({ keys: file.keys, chunks: entries }));
  const head = Buffer.alloc(16);
  head.write('OBMIRROR', 0, 'latin1');
  head.writeUInt32LE(1, 8);
  head.writeUInt32LE(json.length, 12);
  const pad = Buffer.alloc(a16(16 + json.length) - 16 - json.length);
  writeFileSync(path, Buffer.concat([head, json, pad, ...parts]));
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'brain-mirror-'));
  db = openDb(join(dir, 'brain.db'));
  fill(db, 1, ROWS + 1, 1);
});
afterEach(() => {
  forgetMirror(db);
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('[R9] the vector mirror beside the database', () => {
  it('is written on the first load, owner-only, and the next start reads every chunk from it', () => {
    const path = mirrorPath(db.name, 'section');
    const first = knn(db);
    expect(mirrorLoadStats(db, 'section')).toEqual({ fromFile: 0, fromDb: 3, whole: false });
    expect(existsSync(path)).toBe(true);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(first[0]).toHaveLength(20);

    forgetMirror(db);
    const second = knn(db);
    // The file names the database's generation: taken whole, no blob read from the database.
    expect(mirrorLoadStats(db, 'section')).toEqual({ fromFile: 3, fromDb: 0, whole: true });
    expect(second).toEqual(first);
    // Scope filtering still works on keys read from the file.
    const eng = knn(db, ['team:eng']);
    for (const list of eng) for (const rowid of list ?? []) expect(rowid % 5).toBe(0);
  });

  it('rebuilds only the chunks the database changed since the file was written', () => {
    knn(db);
    forgetMirror(db);
    // Change a vector in the first chunk and delete one in the last; the middle chunk holds.
    db.transaction(() => {
      vecUpsert(db, { rowid: 3, storage_kind: 'section', scope: 'org' }, MODEL, queries[0]!);
      vecDelete(db, ROWS);
    })();
    const got = knn(db);
    const stats = mirrorLoadStats(db, 'section');
    expect(stats?.fromFile).toBe(1);
    expect(stats?.fromDb).toBe(2);
    expect(got[0]?.[0]).toBe(3); // the changed row is now the nearest to the first query
    expect(got.flat()).not.toContain(ROWS);
    expect(got).toEqual(fromDatabaseAlone(db));
  });

  it('taken whole, it still follows later writes', () => {
    knn(db);
    forgetMirror(db);
    knn(db);
    expect(mirrorLoadStats(db, 'section')?.whole).toBe(true);
    // A write after a whole load: the chunks are compared by their hashes, the changed ones rebuilt.
    vecUpsert(db, { rowid: 7, storage_kind: 'section', scope: 'org' }, MODEL, queries[1]!);
    const after = knn(db);
    const stats = mirrorLoadStats(db, 'section');
    expect(stats?.whole).toBe(false);
    expect(stats?.fromDb).toBeGreaterThan(0);
    expect(after[1]?.[0]).toBe(7);
    expect(after).toEqual(fromDatabaseAlone(db));
  });

  it('a file behind the database is written anew after a first load once it is 10 minutes old, and the next start takes it whole', async () => {
    const rows = 12_000; // twelve chunks: one changed chunk is under the tenth that rewrites the file at once
    const path = mirrorPath(db.name, 'section');
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    fill(db, ROWS + 1, rows + 1, 2);
    knn(db);
    forgetMirror(db);
    vecUpsert(db, { rowid: rows, storage_kind: 'section', scope: 'org' }, MODEL, queries[4]!);
    const got = knn(db);
    expect(mirrorLoadStats(db, 'section')).toEqual({ fromFile: 11, fromDb: 1, whole: false });
    expect(got[4]?.[0]).toBe(rows);
    // Written a moment ago (processes one a call, the vectors changing between them): left as it is.
    await tick();
    forgetMirror(db);
    knn(db);
    expect(mirrorLoadStats(db, 'section')).toEqual({ fromFile: 11, fromDb: 1, whole: false });
    // Eleven minutes old: written anew once the answer is out.
    const old = new Date(Date.now() - 11 * 60_000);
    utimesSync(path, old, old);
    forgetMirror(db);
    expect(knn(db)).toEqual(got);
    await tick();
    forgetMirror(db);
    expect(knn(db)).toEqual(got);
    expect(mirrorLoadStats(db, 'section')).toEqual({ fromFile: 12, fromDb: 0, whole: true });
  });

  it('a file of version 1 (no generation, rowids or sign bits) is read chunk by chunk, then written anew at once', async () => {
    const path = mirrorPath(db.name, 'section');
    const want = knn(db);
    asVersion1(path);
    const v1 = openMirrorFile(path);
    expect(v1).toMatchObject({ version: 1, generation: null });
    if (v1) closeMirrorFile(v1);
    forgetMirror(db);
    expect(knn(db)).toEqual(want);
    expect(mirrorLoadStats(db, 'section')).toEqual({ fromFile: 3, fromDb: 0, whole: false });
    await new Promise((resolve) => setImmediate(resolve));
    forgetMirror(db);
    expect(knn(db)).toEqual(want);
    expect(mirrorLoadStats(db, 'section')).toEqual({ fromFile: 3, fromDb: 0, whole: true });
  });

  it('a database restored from an older copy does not take the newer file whole', async () => {
    const copy = join(dir, 'copy.db');
    knn(db);
    db.exec(`VACUUM INTO '${copy}'`);
    vecUpsert(db, { rowid: 5, storage_kind: 'section', scope: 'org' }, MODEL, queries[2]!);
    forgetMirror(db);
    expect(knn(db)[2]?.[0]).toBe(5);
    await new Promise((resolve) => setImmediate(resolve)); // the file now mirrors the newer state

    // Put the older copy back at the database's path, then write to it again.
    const path = db.name;
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    copyFileSync(copy, path);
    db = openDb(path);
    vecUpsert(db, { rowid: 9, storage_kind: 'section', scope: 'org' }, MODEL, queries[3]!);
    const got = knn(db);
    expect(mirrorLoadStats(db, 'section')?.whole).toBe(false);
    expect(got[2]?.[0]).not.toBe(5);
    expect(got[3]?.[0]).toBe(9);
    expect(got).toEqual(fromDatabaseAlone(db));
  });

  it('is ignored when it is truncated, garbage or another database’s', () => {
    const path = mirrorPath(db.name, 'section');
    const want = knn(db);

    truncateSync(path, 5000);
    forgetMirror(db);
    expect(knn(db)).toEqual(want);
    expect(mirrorLoadStats(db, 'section')).toEqual({ fromFile: 0, fromDb: 3, whole: false });

    writeFileSync(path, 'OBMIRROR not a mirror at all');
    forgetMirror(db);
    expect(knn(db)).toEqual(want);
    expect(mirrorLoadStats(db, 'section')?.fromFile).toBe(0);

    // Another database's file at this path: its chunks' hashes do not match.
    const other = openDb(join(dir, 'other.db'));
    try {
      fill(other, 1, ROWS + 1, 99);
      knn(other);
      copyFileSync(mirrorPath(other.name, 'section'), path);
      forgetMirror(db);
      expect(knn(db)).toEqual(want);
      expect(mirrorLoadStats(db, 'section')?.fromFile).toBe(0);
    } finally {
      forgetMirror(other);
      other.close();
    }
  });

  it('a write removes the temporary files of writes that a process left unfinished', () => {
    const path = mirrorPath(db.name, 'section');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid; // a process that has ended
    const stale = `${path}.tmp-${dead}-abc`;
    const live = `${path}.tmp-${process.ppid}-def`; // a running process's write in progress
    writeFileSync(stale, 'half');
    writeFileSync(live, 'half');
    knn(db);
    expect(existsSync(path)).toBe(true);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });

  it('an in-memory database keeps no file', () => {
    const mem = openDb(':memory:');
    try {
      fill(mem, 1, 100, 3);
      expect(knn(mem)[0]).toHaveLength(20);
      expect(mirrorLoadStats(mem, 'section')?.fromDb).toBe(1);
    } finally {
      forgetMirror(mem);
      mem.close();
    }
  });
});
