/**
 * ADD awaits its disk work (src/engine/add/add.ts, add-read.ts): the same results in the same order
 * as the walk finds the files, whatever is read ahead, and the event loop turns in between.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { CHUNK_BYTES, hashBytes, readHashed } from './add-read.ts';

let ws: TestWorkspace;
let engine: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
});
afterEach(async () => {
  await ws.cleanup();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** Text of `size` bytes, different for every seed. */
const text = (size: number, seed: number) => `# ${seed}\n\n`.padEnd(size, `w${seed} `);

describe('add, file by file', () => {
  it('reports in walk order (names sorted, folders depth first, hidden skipped), big files included', async () => {
    ws.write('drop/b.md', text(100, 1));
    ws.write('drop/a/z.txt', text(600 * 1024, 2)); // above the read-ahead limit: read at its turn
    ws.write('drop/a/y.bmp', new Uint8Array([0x42, 0x4d, 0x3a, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0]));
    ws.write('drop/a/x.md', text(50, 3));
    ws.write('drop/.hidden/secret.md', text(50, 4));
    ws.write('drop/.dotfile.md', text(50, 5));
    ws.write('drop/c.md', '');
    ws.write('drop/d.md', text(2 * 1024 * 1024, 6));
    truncateSync(ws.write('drop/e.txt', ''), 101 * 1024 * 1024);
    const drop = join(ws.files, 'drop');
    const progress: string[] = [];
    const result = await engine.add([drop, join(ws.files, 'missing.md')], {
      onProgress: (p) => progress.push(`${p.done}/${p.total}`),
    });
    const real = realpathSync(drop);
    expect(result.added.map((a) => a.path)).toEqual(
      ['a/x.md', 'a/z.txt', 'b.md', 'd.md'].map((p) => join(real, p)),
    );
    expect(result.refused).toEqual([
      { path: join(ws.files, 'missing.md'), reason: 'no such file or folder' },
      { path: join(real, 'a/y.bmp'), reason: expect.stringMatching(/^unsupported file type \.bmp/) },
      { path: join(real, 'c.md'), reason: 'empty file (0 bytes)' },
      { path: join(drop, 'e.txt'), reason: 'too large: 101.0 MB (the limit is 100 MB)' },
    ]);
    expect(progress).toEqual(['1/7', '2/7', '3/7', '4/7', '5/7', '6/7', '7/7']);
    const again = await engine.add([drop]);
    expect(again.unchanged.map((u) => u.path)).toEqual(result.added.map((a) => a.path));
    expect(again.added).toEqual([]);
  });

  it('stores the bytes under their sha256, and a folder reached by a link keeps its real path', async () => {
    const path = ws.write('real/big.md', text(3 * CHUNK_BYTES + 17, 7));
    symlinkSync(join(ws.files, 'real'), join(ws.files, 'link'));
    const [viaLink] = (await engine.add([join(ws.files, 'link')])).added;
    expect(viaLink?.path).toBe(realpathSync(path));
    const blob = engine.db.prepare('SELECT blob FROM items WHERE id = ?').get(viaLink?.id) as {
      blob: string;
    };
    expect(blob.blob).toBe(sha256(readFileSync(path)));
    expect(engine.blobs.get(blob.blob).equals(readFileSync(path))).toBe(true);
    expect((await engine.add([path])).unchanged.map((u) => u.id)).toEqual([viaLink?.id]);
  });

  it('lets the event loop turn while a folder is added', async () => {
    for (let i = 0; i < 300; i++) ws.write(`many/${String(i).padStart(3, '0')}.md`, text(80, i));
    let done = false;
    let turns = 0;
    const turn = () => {
      turns++;
      if (!done) setImmediate(turn);
    };
    setImmediate(turn);
    const adding = engine.add([join(ws.files, 'many')]).finally(() => {
      done = true;
    });
    const turnsWhenDone = await adding.then((r) => {
      expect(r.added).toHaveLength(300);
      return turns;
    });
    // Turns taken before the add answered: a synchronous add would leave none.
    expect(turnsWhenDone).toBeGreaterThan(1);
  });
});

describe('reading and hashing in chunks', () => {
  it('gives the bytes and sha256 readFileSync and one-shot hashing give', async () => {
    mkdirSync(join(ws.files, 'sizes'));
    for (const size of [0, 1, CHUNK_BYTES - 1, CHUNK_BYTES, 2 * CHUNK_BYTES + 5]) {
      const path = ws.write(`sizes/${size}.txt`, text(size, size).slice(0, size));
      const bytes = readFileSync(path);
      const read = await readHashed(path, bytes.length);
      expect(read.bytes.equals(bytes)).toBe(true);
      expect(read.sha256).toBe(sha256(bytes));
      expect(await hashBytes(bytes)).toBe(sha256(bytes));
    }
  });
});
