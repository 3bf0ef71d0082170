/**
 * [R1] in docs/RETRIEVAL.md at the engine: the keyword streams' term counts never hide words
 * written after they were counted, whether this connection wrote them or another one did (two
 * engines on one workspace are two SQLite connections, as two processes are). The cross-process
 * case with real processes is test/answerable-at-once.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../engine.ts';
import { upsertNote } from '../knowledge/notes.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { cachedCount, ftsGeneration } from './keyword-stream.ts';

let ws: TestWorkspace;
let host: Engine;

beforeEach(async () => {
  ws = createTestWorkspace();
  host = ws.open();
  await host.add([ws.write('handbook.md', '# Handbook\n\nInvoices go out on the first working day.\n')]);
  await host.index();
});
afterEach(async () => ws.cleanup());

const labels = async (engine: Engine, query: string) =>
  (await engine.search(query, { mode: 'keyword' })).hits.map((h) => h.label);

const note = (engine: Engine, label: string, body: string) =>
  upsertNote(engine.db, engine.workspaceId, {
    kind: 'fact',
    label,
    body,
    scope: 'org',
    actor: engine.user,
    source: 'test',
  });

describe('[R1] term counts follow every write', () => {
  it('[R1] words another connection indexes are found by the next search of this one', async () => {
    expect(await labels(host, 'quokka marmalade policy')).toEqual([]);
    const other = ws.open();
    await other.add([ws.write('pantry.md', '# Pantry\n\nThe quokka marmalade policy: one jar per team.\n')]);
    await other.index();
    expect((await labels(host, 'quokka marmalade policy')).some((l) => l.includes('Pantry'))).toBe(true);
  });

  it('[R1] a note this connection writes is found by its next search', async () => {
    expect(await labels(host, 'narwhal tapestry budget')).toEqual([]);
    note(host, 'Narwhal tapestry', 'The narwhal tapestry budget is 400 euros.');
    expect(await labels(host, 'narwhal tapestry budget')).toContain('Narwhal tapestry');
  });

  it('[R1] a note another connection writes is found by the next search of this one', async () => {
    expect(await labels(host, 'wombat lasagna recipe')).toEqual([]);
    const other = ws.open();
    note(other, 'Wombat lasagna', 'The wombat lasagna recipe needs three layers.');
    expect(await labels(host, 'wombat lasagna recipe')).toContain('Wombat lasagna');
  });

  it('[R1] the full-text generation moves with full-text writes only, not with telemetry', async () => {
    const before = ftsGeneration(host.db);
    await host.search('invoices working day');
    await host.search('invoices working day');
    expect(ftsGeneration(host.db)).toEqual(before);
    note(ws.open(), 'Otter', 'Otters hold hands while they sleep.');
    expect(ftsGeneration(host.db)).not.toEqual(before);
  });

  it('[R1] after a write, a word that matched nothing is counted again; a found word keeps its count a minute', async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    try {
      expect(await labels(host, 'invoices quokka')).toContain('Handbook');
      const invoices = cachedCount(host.db, 'invoices');
      expect(invoices).toBeGreaterThan(0);
      expect(cachedCount(host.db, 'quokka')).toBe(0);

      note(ws.open(), 'Quokka invoices', 'Quokka invoices go out on Fridays.');
      expect(await labels(host, 'invoices quokka')).toContain('Quokka invoices');
      expect(cachedCount(host.db, 'quokka')).toBe(1);
      // Not counted again: one note more moves a word's count by little, and counting a common
      // word walks all its rows.
      expect(cachedCount(host.db, 'invoices')).toBe(invoices);

      vi.setSystemTime(start + 61_000);
      note(ws.open(), 'More invoices', 'Invoices for the pantry go out monthly.');
      expect(await labels(host, 'invoices quokka')).toContain('More invoices');
      expect(cachedCount(host.db, 'invoices')).toBe((invoices ?? 0) + 2);
    } finally {
      vi.useRealTimers();
    }
  });
});
