/**
 * [R2] in docs/RETRIEVAL.md: freshness counts from the date a document states about itself.
 * Real files built in the test (Markdown front matter, a PDF /Info dictionary, DOCX and XLSX core
 * properties), added and indexed by a real engine: the file and its sections carry that date,
 * search ranks a fresh document above an equally matching old one, and the dossier shows it.
 */
import { utimesSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDocx, buildXlsx } from '../../../test/ingest-helpers/build-office.ts';
import { buildPdf } from '../../../test/ingest-helpers/build-pdf.ts';
import type { Engine } from '../engine.ts';
import { dossier } from '../read/dossier.ts';
import type { ItemRow } from '../read/items.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';

let ws: TestWorkspace;
let engine: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
});
afterEach(async () => ws.cleanup());

const POLICY = 'Expense claims above 200 euros need a receipt and the approval of a team lead.';

function rows(fileId: string): { file: ItemRow; sections: ItemRow[] } {
  const all = engine.db
    .prepare('SELECT * FROM items WHERE (id = ? OR file_id = ?) AND retired_at IS NULL')
    .all(fileId, fileId) as ItemRow[];
  return {
    file: all.find((r) => r.storage_kind === 'file') as ItemRow,
    sections: all.filter((r) => r.storage_kind === 'section'),
  };
}

async function addAndIndex(name: string, content: string | Uint8Array): Promise<string> {
  const added = await engine.add([ws.write(name, content)]);
  const id = added.added[0]?.id ?? '';
  await engine.index([id]);
  return id;
}

function expectDated(fileId: string, at: string): void {
  const { file, sections } = rows(fileId);
  expect(file.occurred_at).toBe(at);
  expect(sections.length).toBeGreaterThan(0);
  expect(sections.map((s) => s.occurred_at)).toEqual(sections.map(() => at));
}

describe('[R2] freshness from the document date', () => {
  it('[R2] Markdown front matter `date` dates the file and its sections, and the dossier shows it', async () => {
    const id = await addAndIndex('policy.md', `---\ndate: 2023-01-15\n---\n# Expenses\n\n${POLICY}\n`);
    expectDated(id, '2023-01-15T00:00:00.000Z');
    const d = await dossier(engine, id);
    expect(d.file?.dated).toEqual({ at: '2023-01-15T00:00:00.000Z', from: 'front matter `date`' });
    // The provenance note is the dossier's "Dated", not an ingest note.
    expect(d.file?.health).toEqual([]);
    const section = rows(id).sections[0] as ItemRow;
    expect((await dossier(engine, section.id)).file?.dated?.at).toBe('2023-01-15T00:00:00.000Z');
  });

  it('[R2] the latest of the front matter dates wins (`updated` after `date`)', async () => {
    const id = await addAndIndex(
      'reviewed.md',
      `---\ndate: 2021-03-01\nupdated: 2024-05-02\n---\n${POLICY}\n`,
    );
    expectDated(id, '2024-05-02T00:00:00.000Z');
    expect((await dossier(engine, id)).file?.dated?.from).toBe('front matter `updated`');
  });

  it('[R2] a PDF dates by its ModDate, else its CreationDate', async () => {
    const modified = buildPdf([['Expenses', POLICY]], undefined, {
      CreationDate: 'D:20200101120000Z',
      ModDate: "D:20220310091500+01'00'",
    });
    const created = buildPdf([['Travel', 'Book trains for trips under four hours.']], undefined, {
      CreationDate: 'D:20210704000000Z',
    });
    const a = await addAndIndex('expenses.pdf', modified);
    const b = await addAndIndex('travel.pdf', created);
    expectDated(a, '2022-03-10T08:15:00.000Z');
    expectDated(b, '2021-07-04T00:00:00.000Z');
    expect((await dossier(engine, a)).file?.dated?.from).toBe('PDF ModDate');
  });

  it('[R2] DOCX and XLSX date by their core properties (dcterms:modified, else created)', async () => {
    const docx = await buildDocx([{ heading: 1, text: 'Expenses' }, POLICY], {
      created: '2019-02-01T10:00:00Z',
      modified: '2022-06-01T08:30:00Z',
    });
    const onlyCreated = await buildDocx(['Book trains for trips under four hours.'], {
      created: '2020-09-09T00:00:00Z',
    });
    const xlsx = await buildXlsx(
      [
        {
          name: 'Limits',
          rows: [
            ['Claim', 'Limit'],
            ['Hotel', 120],
          ],
        },
      ],
      undefined,
      {
        created: new Date('2018-01-01T00:00:00Z'),
        modified: new Date('2021-11-30T12:00:00Z'),
      },
    );
    const a = await addAndIndex('expenses.docx', docx);
    const b = await addAndIndex('travel.docx', onlyCreated);
    const c = await addAndIndex('limits.xlsx', xlsx);
    expectDated(a, '2022-06-01T08:30:00.000Z');
    expectDated(b, '2020-09-09T00:00:00.000Z');
    expectDated(c, '2021-11-30T12:00:00.000Z');
    expect((await dossier(engine, a)).file?.dated?.from).toBe('document properties (modified)');
  });

  it('[R2] re-indexing the same bytes dates sections indexed before the date was read', async () => {
    const id = await addAndIndex('policy.md', `---\ndate: 2023-01-15\n---\n# Expenses\n\n${POLICY}\n`);
    // As an older release left them: the sections dated by the file's modified time.
    engine.db.prepare("UPDATE items SET occurred_at = '2026-01-01T00:00:00.000Z' WHERE file_id = ?").run(id);
    const before = rows(id).sections.map((s) => s.id);
    await engine.index([id]);
    expectDated(id, '2023-01-15T00:00:00.000Z');
    expect(rows(id).sections.map((s) => s.id)).toEqual(before);
  });

  it('[R2] without a stated date the file and its sections keep the file modified time', async () => {
    const path = ws.write('plain.txt', POLICY);
    const mtime = new Date('2024-02-03T04:05:06.000Z');
    utimesSync(path, mtime, mtime);
    const id = (await engine.add([path])).added[0]?.id ?? '';
    await engine.index([id]);
    expectDated(id, mtime.toISOString());
    expect((await dossier(engine, id)).file?.dated).toBeNull();
  });

  it('[R2] a fresh document ranks above an equally matching two-year-old one', async () => {
    const now = Date.now();
    const old = new Date(now - 2 * 365 * 86_400_000).toISOString().slice(0, 10);
    const fresh = new Date(now - 86_400_000).toISOString().slice(0, 10);
    // The old one first: on a tie of keyword scores it takes the first place before freshness.
    // Their titles differ (by a word of the same length) so that neither is a copy of the other,
    // which would ride along with it ([R6]).
    const oldId = await addAndIndex('policy-old.md', `---\ndate: ${old}\n---\n# Expenses one\n\n${POLICY}\n`);
    const freshId = await addAndIndex(
      'policy-new.md',
      `---\ndate: ${fresh}\n---\n# Expenses two\n\n${POLICY}\n`,
    );
    const { hits } = await engine.search('expense claims receipt approval team lead', { k: 4 });
    const sections = hits.filter((h) => h.storageKind === 'section');
    expect(sections.map((h) => h.citation?.fileId)).toEqual([freshId, oldId]);
    expect(sections[0]!.score).toBeGreaterThan(sections[1]!.score * 2);
  });
});
