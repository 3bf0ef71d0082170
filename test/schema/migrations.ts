/**
 * The rules on migrations themselves ([D2] and [D3] in docs/SCHEMA.md), for both stores: each
 * shipped migration's content hash is pinned in a committed JSON file, ids are unique and in
 * order, new ones come after the last shipped one, and no migration imports another.
 *
 * The hash of a `run` step is the sha256 of its source text as written in the migration file
 * (read with the TypeScript parser), not of `run.toString()`: that is the text after the test
 * runner's or tsx's transform, which differ, so one migration would have two hashes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { MIGRATIONS as ENGINE_MIGRATIONS } from '#engine/db/migrations/index.ts';
import { MIGRATIONS as SERVER_MIGRATIONS } from '../../src/server/db/migrations/index.ts';
import type { Json } from './snapshot.ts';

type AnyMigration = { id: string; sql: string; run?: unknown };
export type Store = { name: string; dir: string; pinsFile: string; migrations: readonly AnyMigration[] };
export type Pin = { sql: string; run?: string };
export type Problem = { kind: 'new' | 'broken'; id: string; message: string };

export const STORES: readonly Store[] = [
  {
    name: 'SQLite store',
    dir: 'src/engine/db/migrations',
    pinsFile: 'src/engine/db/migration-hashes.json',
    migrations: ENGINE_MIGRATIONS,
  },
  {
    name: 'server',
    dir: 'src/server/db/migrations',
    pinsFile: 'src/server/db/migration-hashes.json',
    migrations: SERVER_MIGRATIONS,
  },
];

const MIGRATION_FILE = /^\d{4}-[a-z0-9-]+\.ts$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The source text of the declaration exported as `run` from `file`. */
function runSource(file: string): string | null {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const exported = (node: ts.Node) =>
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of source.statements) {
    if (!exported(statement)) continue;
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === 'run')
      return statement.getText(source);
    if (ts.isVariableStatement(statement)) {
      const decl = statement.declarationList.declarations.find((d) => d.name.getText(source) === 'run');
      if (decl) return decl.getText(source);
    }
  }
  return null;
}

/** Each migration's hashes, by id, in order. A `run` step must be the `run` export of `<dir>/<id>.ts`. */
export async function migrationPins(store: Store): Promise<{ [id: string]: Pin }> {
  const pins: { [id: string]: Pin } = {};
  for (const m of store.migrations) {
    const pin: Pin = { sql: sha256(m.sql) };
    if (m.run) {
      const file = resolve(store.dir, `${m.id}.ts`);
      const mod = existsSync(file) ? ((await import(pathToFileURL(file).href)) as { run?: unknown }) : {};
      const text = mod.run === m.run ? runSource(file) : null;
      if (text === null)
        throw new Error(
          `The run step of migration ${m.id} must be the function exported as \`run\` from ${file}.`,
        );
      pin.run = sha256(text);
    }
    pins[m.id] = pin;
  }
  return pins;
}

/** Whether `pinned` (from the committed file) holds exactly the hashes of `pin`. */
function samePin(pin: Pin, pinned: Json): boolean {
  if (pinned === null || typeof pinned !== 'object' || Array.isArray(pinned)) return false;
  const keys = Object.keys(pinned);
  return pinned.sql === pin.sql && pinned.run === pin.run && keys.every((k) => k === 'sql' || k === 'run');
}

/**
 * What is wrong with `store`'s migrations against its pins file: `broken` problems fail whatever
 * is done; `new` ones (a migration not recorded yet) are what `npm run db:snapshot` records.
 */
export function pinProblems(store: Store, pinned: Json | null, actual: { [id: string]: Pin }): Problem[] {
  const broken = (id: string, message: string): Problem => ({ kind: 'broken', id, message });
  const problems: Problem[] = [];
  const ids = store.migrations.map((m) => m.id);
  ids.forEach((id, i) => {
    if (ids.indexOf(id) !== i) problems.push(broken(id, `migration id ${id} is used twice`));
    // The server orders applied ids by id (src/server/db/migrate.ts): list order and id order must agree.
    const before = ids[i - 1];
    if (before !== undefined && before >= id)
      problems.push(broken(id, `migration ${id} is listed after ${before}`));
    if (!MIGRATION_FILE.test(`${id}.ts`) || !existsSync(join(store.dir, `${id}.ts`)))
      problems.push(broken(id, `migration ${id} is not in a file ${store.dir}/${id}.ts`));
  });
  for (const file of readdirSync(store.dir).filter((f) => MIGRATION_FILE.test(f))) {
    const id = basename(file, '.ts');
    if (!ids.includes(id))
      problems.push(broken(id, `${store.dir}/${file} is not listed in ${store.dir}/index.ts`));
  }
  const shipped = pinned && typeof pinned === 'object' && !Array.isArray(pinned) ? pinned : {};
  const shippedIds = Object.keys(shipped).sort();
  const gone = shippedIds.filter((id) => !actual[id]);
  for (const id of gone)
    problems.push(broken(id, `migration ${id} shipped and is gone: shipped migrations are never removed`));
  shippedIds.forEach((id, i) => {
    const now = actual[id];
    if (now && !samePin(now, shipped[id] ?? null))
      problems.push(broken(id, `migration ${id} changed after it shipped: add a new migration instead`));
    // The shipped ones stay first, in their order (a removed one is reported above instead).
    if (gone.length === 0 && ids[i] !== id)
      problems.push(
        broken(id, `migration ${ids[i]} is listed among the shipped ones: new migrations go after ${id}`),
      );
  });
  const last = shippedIds[shippedIds.length - 1] ?? '';
  for (const id of ids.filter((i) => !(i in shipped))) {
    if (id <= last)
      problems.push(
        broken(
          id,
          `migration ${id} is new but sorts before the last shipped one (${last}): give it a later id`,
        ),
      );
    else
      problems.push({
        kind: 'new',
        id,
        message: `migration ${id} is not recorded in ${store.pinsFile}: run \`npm run db:snapshot\` to record it (adding a migration is a deliberate step)`,
      });
  }
  return problems;
}

/** `file imports specifier` for every import of one migration file from another ([D3]). */
export function migrationImports(dir: string): string[] {
  const found: string[] = [];
  for (const file of readdirSync(dir).filter((f) => MIGRATION_FILE.test(f))) {
    const path = resolve(dir, file);
    const { importedFiles } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(path), fileName);
      if (dirname(target) === resolve(dir) && /^\d{4}-/.test(basename(target)))
        found.push(`${dir}/${file} imports ${fileName}`);
    }
  }
  return found;
}
