/**
 * Schema snapshots ([D1] in docs/SCHEMA.md): what a store's migrations build, as plain JSON with
 * sorted keys, so the committed file only changes where the schema does and a difference can be
 * named by its path (`tables.items.columns.scope.notNull`). Shared by the tests and
 * scripts/db-snapshot.ts, which rewrites the committed files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const SQLITE_SNAPSHOT = 'src/engine/db/schema-snapshot.json';
export const SERVER_SNAPSHOT = 'src/server/db/schema-snapshot.json';
const REGENERATE =
  'If the change is intended (a new migration), run `npm run db:snapshot` and commit the changed files; never edit a shipped migration (docs/SCHEMA.md).';

/** SQL as the database keeps it, with every run of whitespace made one space. */
export function normaliseSql(sql: string): string {
  return sql.replace(/\s+/g, ' ').trim();
}

function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key] as Json);
    return out;
  }
  return value;
}

/** The text of a committed JSON file: keys sorted, two-space indent, final newline. */
export function stableJson(value: Json): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

export function readJson(file: string): Json | null {
  const path = resolve(file);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Json) : null;
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Every place where `actual` differs from `expected`, as `path: what`. Objects are compared key
 * by key (so the path names the table, column, index or trigger); anything else as a whole.
 */
export function diffJson(expected: Json, actual: Json, names: [string, string], path = ''): string[] {
  const [left, right] = names;
  if (isObject(expected) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
    return keys.flatMap((key) => {
      const at = path ? `${path}.${key}` : key;
      if (!(key in actual)) return [`${at}: in ${left}, missing from ${right}`];
      if (!(key in expected)) return [`${at}: in ${right}, missing from ${left}`];
      return diffJson(expected[key] as Json, actual[key] as Json, names, at);
    });
  }
  const a = JSON.stringify(expected);
  const b = JSON.stringify(actual);
  return a === b ? [] : [`${path || '(whole)'}: ${left} ${a}, ${right} ${b}`];
}

/** A failure message: the differences (the first 30) and what to do. */
export function describeDiff(title: string, differences: readonly string[], advice = REGENERATE): string {
  const shown = differences.slice(0, 30).map((d) => `  - ${d}`);
  if (differences.length > 30) shown.push(`  … and ${differences.length - 30} more`);
  return [title, ...shown, advice].join('\n');
}
