/**
 * Part 2b, adding (`--only add`): a drop of 10,000 small Markdown files through the real engine
 * (`engine.add`), in files/s, and the longest the event loop went without turning meanwhile
 * (perf_hooks.monitorEventLoopDelay): what any other request of a host that stays up (`brain
 * serve`, the app's engine process) waited at worst. The same drop added again (every file
 * unchanged), and one big text file, show the same two figures. Beside them, in the same run: the
 * loop's stalls while idle for as long (the machine's noise floor), and a synchronous walk, read
 * and sha256 of the same files, which is at the least what an add done synchronously blocks the
 * loop for (all of it, in one piece).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Engine } from '#engine/engine.ts';
import { vocabulary } from './corpus.ts';
import { mb, printTable, rng, round } from './util.ts';

type Figures = { seconds: number; filesPerSecond: number; maxStallMs: number; p99StallMs: number };

export type AddBenchResult = {
  files: number;
  mb: number;
  add: Figures;
  again: Figures;
  bigFile: Figures & { mb: number };
  idle: { seconds: number; maxStallMs: number; p99StallMs: number };
  syncFloor: { seconds: number; filesPerSecond: number };
};

/** The histogram's sampling interval; its values include it, so it is taken off. */
const RESOLUTION_MS = 2;

/** Runs fn and reports how long it took and the event loop's stalls meanwhile, in ms. */
async function measured(files: number, fn: () => Promise<unknown>): Promise<Figures> {
  const h = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  h.enable();
  await sleep(20);
  h.reset();
  // After a reset (as after enable) the first sample only restarts the histogram's clock: a stall
  // right at the start would go unrecorded without a few samples first.
  await sleep(5 * RESOLUTION_MS);
  const started = performance.now();
  await fn();
  const ms = performance.now() - started;
  await sleep(20); // a stall at the very end is recorded by the sample after it
  h.disable();
  const stall = (ns: number) => round(Math.max(0, ns / 1e6 - RESOLUTION_MS));
  return {
    seconds: round(ms / 1000),
    filesPerSecond: Math.round(files / (ms / 1000)),
    maxStallMs: stall(h.max),
    p99StallMs: stall(h.percentile(99)),
  };
}

/** `count` notes of 100-400 bytes: a heading and a paragraph of Zipf-drawn words. */
function writeNotes(dir: string, count: number): number {
  mkdirSync(dir, { recursive: true });
  const vocab = vocabulary();
  const rand = rng(5);
  const word = () => vocab[Math.floor(rand() ** 3 * vocab.length)];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 15 + Math.floor(rand() * 45) }, word).join(' ');
    const text = `# Note ${i}\n\n${words}.\n`;
    writeFileSync(join(dir, `note-${String(i).padStart(5, '0')}.md`), text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

/** The synchronous floor: walk, read and hash every file, nothing stored. */
function syncWalkReadHash(dir: string): number {
  let n = 0;
  const names = readdirSync(dir).sort((a, b) => a.localeCompare(b));
  for (const name of names) {
    createHash('sha256')
      .update(readFileSync(join(dir, name)))
      .digest('hex');
    n++;
  }
  return n;
}

export async function runAddBench(options: {
  dir: string;
  files: number;
  bigMb: number;
  log: (m: string) => void;
}): Promise<AddBenchResult> {
  const { dir, files, log } = options;
  rmSync(dir, { recursive: true, force: true });
  const notes = join(dir, 'notes');
  log(`\n[add] writing ${files} small Markdown files`);
  const bytes = writeNotes(notes, files);
  const big = join(dir, 'big', 'big.txt');
  mkdirSync(join(dir, 'big'));
  writeFileSync(big, Buffer.alloc(options.bigMb * 1024 * 1024, 'All work and no play. '));
  const engine = Engine.open({ home: join(dir, 'home'), modelDir: join(dir, 'no-model') });
  try {
    log('  adding them, then again (unchanged), then one big file');
    const add = await measured(files, () => engine.add([notes]));
    const again = await measured(files, () => engine.add([notes]));
    const bigFile = { ...(await measured(1, () => engine.add([big]))), mb: options.bigMb };
    const idle = await measured(0, () => sleep(add.seconds * 1000));
    const t = performance.now();
    syncWalkReadHash(notes);
    const floorSeconds = (performance.now() - t) / 1000;
    return {
      files,
      mb: round(mb(bytes)),
      add,
      again,
      bigFile,
      idle: { seconds: idle.seconds, maxStallMs: idle.maxStallMs, p99StallMs: idle.p99StallMs },
      syncFloor: { seconds: round(floorSeconds), filesPerSecond: Math.round(files / floorSeconds) },
    };
  } finally {
    await engine.close();
  }
}

export function printAdd(r: AddBenchResult): void {
  const row = (name: string, n: number | string, f: Figures, rate: string) => [
    name,
    n,
    f.seconds,
    rate,
    f.maxStallMs,
    f.p99StallMs,
  ];
  const big = r.bigFile;
  printTable(
    `Adding (engine.add, ${r.files} files of ${r.mb} MB in all; stalls = event loop delay, ms)`,
    ['run', 'files', 's', 'rate', 'longest stall', 'p99 stall'],
    [
      row('add', r.files, r.add, `${r.add.filesPerSecond} files/s`),
      row('add again (unchanged)', r.files, r.again, `${r.again.filesPerSecond} files/s`),
      row(`one ${big.mb} MB text file`, 1, big, `${round(big.mb / big.seconds, 0)} MB/s`),
      ['baseline: idle loop, as long', '', r.idle.seconds, '', r.idle.maxStallMs, r.idle.p99StallMs],
      [
        'baseline: sync walk+read+sha256, no store',
        r.files,
        r.syncFloor.seconds,
        `${r.syncFloor.filesPerSecond} files/s`,
        round(r.syncFloor.seconds * 1000),
        '',
      ],
    ],
  );
}
