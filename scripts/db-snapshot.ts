/**
 * `npm run db:snapshot`: rewrites the committed schema snapshots of both stores and records the
 * hashes of new migrations (docs/SCHEMA.md). The SQLite snapshot comes from a new, empty
 * workspace database migrated through the real driver; the server's from PGlite in memory
 * (the test checks that PostgreSQL gives the same). A shipped migration whose hash changed is
 * never re-recorded: the script stops, writes nothing and says to add a new migration instead.
 * Files are written formatted by the repository's Biome, so `npm run lint` accepts them, and only
 * when their text changes: running it twice leaves the files as they are.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { migrationPins, type Pin, pinProblems, STORES } from '../test/schema/migrations.ts';
import { freshPgliteSchema } from '../test/schema/postgres-schema.ts';
import {
  type Json,
  readJson,
  SERVER_SNAPSHOT,
  SQLITE_SNAPSHOT,
  stableJson,
} from '../test/schema/snapshot.ts';
import { freshSqliteSchema } from '../test/schema/sqlite-schema.ts';

const BIOME = resolve('node_modules/@biomejs/biome/bin/biome');

/** `value` as Biome formats the JSON file `file` (the same text every run). */
function formatted(file: string, value: Json): string {
  return execFileSync(process.execPath, [BIOME, 'format', `--stdin-file-path=${file}`], {
    input: stableJson(value),
    encoding: 'utf8',
  });
}

function write(file: string, value: Json): void {
  const path = resolve(file);
  const text = formatted(file, value);
  const before = existsSync(path) ? readFileSync(path, 'utf8') : null;
  if (before === text) {
    console.log(`unchanged  ${file}`);
    return;
  }
  writeFileSync(path, text);
  console.log(`${before === null ? 'created' : 'updated'}    ${file}`);
}

async function main(): Promise<number> {
  const pins: { file: string; value: { [id: string]: Pin } }[] = [];
  const broken: string[] = [];
  for (const store of STORES) {
    const pinned = readJson(store.pinsFile);
    const actual = await migrationPins(store);
    const problems = pinProblems(store, pinned, actual);
    broken.push(...problems.filter((p) => p.kind === 'broken').map((p) => `${store.name}: ${p.message}`));
    for (const p of problems.filter((p) => p.kind === 'new'))
      console.log(`recording  ${store.name} migration ${p.id}`);
    pins.push({ file: store.pinsFile, value: actual });
  }
  if (broken.length > 0) {
    console.error(['Nothing was written:', ...broken.map((b) => `  - ${b}`)].join('\n'));
    return 1;
  }
  for (const p of pins) write(p.file, p.value);
  write(SQLITE_SNAPSHOT, freshSqliteSchema());
  write(SERVER_SNAPSHOT, await freshPgliteSchema());
  return 0;
}

process.exitCode = await main();
