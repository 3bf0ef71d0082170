/**
 * docs/OCR.md [O9] through the engine's command layer: files.index with `ocr: true` reads a PDF
 * whose text layer is garbage by OCR, keeps that choice for every later index of the file (a new
 * version, after the workspace is opened again) and `ocr: false` turns it off, back to the text
 * layer. Every section reads back as indexed, in a fresh extraction worker.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Dossier } from '#shared/api/types.ts';
import { buildScanPdf } from '../../../test/ingest-helpers/build-scan-pdf.ts';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { closeIngestWorkers } from '../ingest/index.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';

const jpeg = new Uint8Array(
  readFileSync(join(import.meta.dirname, '../../../test/fixtures/ocr/invoice.jpg')),
);
/** A scan of an invoice under an invisible layer of look-alike garbage, as a font with no Unicode map gives. */
const form = (garbage: string) => buildScanPdf([{ jpeg, width: 640, height: 200, layer: garbage }]);

let ws: TestWorkspace;
let engine: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
  return () => ws.cleanup();
});
afterAll(() => closeIngestWorkers());

const call = (name: string, input: unknown) => runCommand(memberContext(engine, 'app'), name, input);

type Section = { id: string; body: string; locator: string };
function sections(fileId: string): Section[] {
  return engine.db
    .prepare(
      "SELECT id, body, locator FROM items WHERE file_id = ? AND storage_kind = 'section' AND retired_at IS NULL ORDER BY ordinal",
    )
    .all(fileId) as Section[];
}
const textOf = (fileId: string) =>
  sections(fileId)
    .map((s) => s.body)
    .join('\n');

/** Every live section of the file reads back as its body, in a fresh worker. */
async function readsBack(fileId: string): Promise<void> {
  await closeIngestWorkers();
  for (const s of sections(fileId)) expect((await engine.read(s.id)).text).toBe(s.body);
}

describe('[O9] files.index with ocr: a file read by OCR, kept, and turned off', () => {
  it('reads by OCR, keeps reading so on a new version and after a restart, and goes back to the layer', async () => {
    const path = ws.write('form.pdf', form('Hanorosas AeKnapauusi no Hanory'));
    const [added] = (await engine.add([path])).added;
    const id = added!.id;
    await engine.index();
    expect(textOf(id)).toBe('Hanorosas AeKnapauusi no Hanory');

    const answer = (await call('files.index', { ids: [id], ocr: true })) as Record<string, unknown>;
    expect(answer).toMatchObject({
      reading: [{ id, label: 'form.pdf', ocr: true }],
      indexed: [{ id, label: 'form.pdf' }],
      failed: [],
    });
    expect(textOf(id)).toContain('Paid on March 14 2024');
    expect(textOf(id)).not.toContain('Hanorosas');
    for (const s of sections(id)) expect(JSON.parse(s.locator)).toMatchObject({ ocr: 'eng', forced: true });
    const dossier = (await call('items.dossier', { id })) as Dossier;
    expect(dossier.item.readByOcr).toBe(true);
    expect(dossier.item.health).toContain('1 of 1 pages read by OCR, text layers ignored (read by OCR)');
    expect(dossier.text).toContain('Quarterly invoice total');
    await readsBack(id);

    // A new version of the file, indexed the plain way, is still read by OCR.
    ws.write('form.pdf', form('Hanorosas AeKnapauusi no Hanory, second version'));
    await engine.add([path]);
    await engine.index([id]);
    expect(textOf(id)).toContain('Paid on March 14 2024');
    expect(textOf(id)).not.toContain('second version');

    // So is it once the workspace is opened again.
    await engine.close();
    engine = ws.open();
    await engine.index([id]);
    expect(textOf(id)).toContain('Paid on March 14 2024');
    expect(((await call('items.dossier', { id })) as Dossier).item.readByOcr).toBe(true);
    await readsBack(id);

    // Turned off: back to the text layer, and it stays so.
    const off = (await call('files.index', { ids: [id], ocr: false })) as Record<string, unknown>;
    expect(off).toMatchObject({ reading: [{ id, label: 'form.pdf', ocr: false }], indexed: [{ id }] });
    expect(textOf(id)).toBe('Hanorosas AeKnapauusi no Hanory, second version');
    for (const s of sections(id)) expect(JSON.parse(s.locator)).not.toHaveProperty('forced');
    await engine.index([id]);
    expect(textOf(id)).toBe('Hanorosas AeKnapauusi no Hanory, second version');
    expect(((await call('items.dossier', { id })) as Dossier).item).not.toHaveProperty('readByOcr');
    await readsBack(id);
  }, 240_000);

  it('needs named files, and only PDFs are read by OCR on request', async () => {
    const [note] = (await engine.add([ws.write('note.md', '# A note\n\nPlain words.')])).added;
    await expect(call('files.index', { ocr: true })).rejects.toMatchObject({ code: 'validation-failed' });
    await expect(call('files.index', { ids: [], ocr: false })).rejects.toMatchObject({
      code: 'validation-failed',
    });
    await expect(call('files.index', { ids: [note!.id], ocr: true })).rejects.toMatchObject({
      code: 'validation-failed',
      message: expect.stringContaining('note.md is not a PDF'),
    });
    const row = engine.db.prepare('SELECT read_by_ocr FROM items WHERE id = ?').get(note!.id);
    expect(row).toEqual({ read_by_ocr: 0 });
  });
});
