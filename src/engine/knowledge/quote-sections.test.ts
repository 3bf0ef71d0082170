/**
 * "The live section that says this quote" (docs/FACTS.md [K17]), src/engine/knowledge/quote-sections.ts:
 * on a real workspace, and written once in the engine (facts.ts, duplicate-decide.ts and
 * empty-pages.ts use it; no other query finds a section by the words it holds).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { liveSectionsSaying } from './quote-sections.ts';

let ws: TestWorkspace;
let engine: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
});
afterEach(() => ws.cleanup());

const ENGINE = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(path);
    return d.name.endsWith('.ts') && !d.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('[K17] the live section that says a quote', () => {
  it('is a live section of a live file holding the words, in the file order', async () => {
    const added = await engine.add([
      ws.write('a.md', '# One\n\nNorthwind ships chairs.\n\n# Two\n\nNorthwind ships chairs and desks.\n'),
    ]);
    await engine.index();
    const file = added.added[0]?.id ?? '';
    const sections = engine.db
      .prepare("SELECT id FROM items WHERE file_id = ? AND storage_kind = 'section' ORDER BY ordinal")
      .all(file) as { id: string }[];
    const ids = (quote: string) => liveSectionsSaying(engine.db, file, quote).map((s) => s.id);
    expect(ids('Northwind ships chairs')).toEqual(sections.map((s) => s.id));
    expect(ids('and desks')).toEqual([sections[1]?.id]);
    expect(ids('Oslo')).toEqual([]);
    await runCommand(memberContext(engine, 'cli'), 'items.remove', { id: file });
    expect(ids('Northwind ships chairs')).toEqual([]);
  });

  it('is written once: no other engine query finds a section by the words it holds', () => {
    const finding =
      /storage_kind = 'section'[^`]*instr\(\s*[\w.]*body|instr\(\s*[\w.]*body[^`]*storage_kind = 'section'/;
    const writers = sourceFiles(ENGINE)
      .filter((path) => (readFileSync(path, 'utf8').match(/`[^`]*`/g) ?? []).some((sql) => finding.test(sql)))
      .map((path) => relative(ENGINE, path));
    expect(writers).toEqual(['knowledge/quote-sections.ts']);
  });
});
