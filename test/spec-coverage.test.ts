/**
 * docs/SYNC_SPEC.md and the tests keep each other honest. Every sync rule id cited anywhere in
 * the code or the tests (`[S4]`, `[C8]`, in a test's name or a comment) must be a rule of the spec
 * (a bullet `- **[S4] …**`), and every rule of the spec must be cited by the name of at least one
 * test (`it`, `describe` or `forEachBackend` in a `*.test.ts` file), so a rule nobody tests shows.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SPEC = join(ROOT, 'docs', 'SYNC_SPEC.md');
const SOURCES = ['src', 'test', 'e2e'];
const CODE = /\.(ts|tsx|mts|mjs|js)$/;
const RULE_ID = /\[([SC]\d+)\]/g;
/** A test's name: the first argument of it/test/describe (with .skip, .each(…), …) or forEachBackend. */
const TEST_NAME =
  /\b(?:it|test|describe|forEachBackend)(?:\.\w+(?:\([^)]*\))?)*\(\s*(['"`])((?:(?!\1)[^\\]|\\.)*)\1/g;

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name.startsWith('.')) return [];
    const path = join(dir, e.name);
    if (e.isDirectory()) return files(path);
    return CODE.test(e.name) ? [path] : [];
  });
}

/** The rules the spec defines, in order: the ids of its `- **[X] …**` bullets. */
function specRules(text: string): string[] {
  return [...text.matchAll(/^- \*\*\[([SC]\d+)\]/gm)].map((m) => m[1] as string);
}

/** Each cited id with the files citing it. */
function citations(paths: readonly string[], pick: (text: string) => string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const path of paths) {
    for (const id of new Set(pick(readFileSync(path, 'utf8')))) {
      out.set(id, [...(out.get(id) ?? []), relative(ROOT, path)]);
    }
  }
  return out;
}

function ids(text: string): string[] {
  return [...text.matchAll(RULE_ID)].map((m) => m[1] as string);
}

function testNameIds(text: string): string[] {
  return [...text.matchAll(TEST_NAME)].flatMap((m) => ids(m[2] ?? ''));
}

const byId = (a: string, b: string) =>
  a[0]?.localeCompare(b[0] ?? '') || Number(a.slice(1)) - Number(b.slice(1));

describe('docs/SYNC_SPEC.md and the tests cite each other', () => {
  const spec = readFileSync(SPEC, 'utf8');
  const rules = specRules(spec);
  const code = SOURCES.flatMap((d) => files(join(ROOT, d)));
  const tests = code.filter((p) => /\.test\.tsx?$/.test(p));

  it('the spec defines each rule once', () => {
    const twice = rules.filter((r, i) => rules.indexOf(r) !== i);
    expect(rules.length).toBeGreaterThan(40);
    expect(twice, 'rules defined more than once').toEqual([]);
  });

  it('every rule id cited in the code or the tests is a rule of the spec', () => {
    const cited = citations(code, ids);
    const missing = [...cited.keys()]
      .filter((id) => !rules.includes(id))
      .sort(byId)
      .map((id) => `[${id}] cited by ${cited.get(id)?.join(', ')}`);
    expect(missing, 'cited but not in docs/SYNC_SPEC.md').toEqual([]);
  });

  it('every rule of the spec is cited by the name of a test', () => {
    const named = citations(tests, testNameIds);
    const untested = rules.filter((id) => !named.has(id)).map((id) => `[${id}]`);
    expect(untested, 'rules in docs/SYNC_SPEC.md no test name cites').toEqual([]);
  });

  it('reads test names the way vitest declares them', () => {
    const sample = [
      "describe('[C2] outbox', () => {",
      'it(`[S5] a replayed id`, async () => {',
      "it.skip('[S6] later', () => {})",
      "forEachBackend('[C7] fuzz', (backend) => {",
      '// [S9] only in a comment',
    ].join('\n');
    expect(testNameIds(sample)).toEqual(['C2', 'S5', 'S6', 'C7']);
    expect(ids(sample)).toEqual(['C2', 'S5', 'S6', 'C7', 'S9']);
  });
});
