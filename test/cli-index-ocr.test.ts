/**
 * `brain index --ocr <id...>` and `brain index --text-layer <id...>` (docs/OCR.md [O9]) as a
 * script uses them: real processes on a real workspace. A PDF whose text layer is garbage is read
 * by OCR from then on, also by a later plain `brain index` of it, and goes back to its layer; both
 * flags need the files named.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dossier } from '#shared/api/types.ts';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';
import { buildScanPdf } from './ingest-helpers/build-scan-pdf.ts';

let ws: CliWorkspace;
beforeAll(() => {
  ws = cliWorkspace('brain-cli-index-ocr-');
});
afterAll(() => ws.remove());

const jpeg = new Uint8Array(readFileSync(join(import.meta.dirname, 'fixtures/ocr/invoice.jpg')));
const GARBAGE = 'Hanorosas AeKnapauusi no Hanory';

describe('[O9] brain index --ocr', () => {
  it('reads the named files by OCR and keeps doing so, --text-layer goes back, and both need ids', {
    timeout: 240_000,
  }, async () => {
    const path = join(ws.files, 'form.pdf');
    writeFileSync(path, buildScanPdf([{ jpeg, width: 640, height: 200, layer: GARBAGE }]));
    const added = await ws.brainJson<{ added: { id: string }[] }>('add', path);
    const id = added.added[0]!.id;
    await ws.brainText('index');
    expect(await ws.brainText('search', 'Hanorosas')).toContain('form.pdf');

    for (const flag of ['--ocr', '--text-layer']) {
      const bare = await ws.brain('index', flag);
      expect(bare.code, bare.stderr).not.toBe(0);
      expect(bare.stderr).toContain(`${flag} needs the ids of the files to read`);
    }
    const both = await ws.brain('index', '--ocr', '--text-layer', id);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain('Choose one of --ocr and --text-layer.');

    const ocr = await ws.brainText('index', '--ocr', id);
    expect(ocr).toContain(`read by OCR from now on: ${id}  form.pdf`);
    expect(ocr).toMatch(new RegExp(`indexed {2}${id} {2}form\\.pdf \\(\\d+ sections?\\)`));
    expect(await ws.brainText('search', 'Paid on March')).toContain('form.pdf');
    const dossier = await ws.brainJson<Dossier>('dossier', id);
    expect(dossier.item.readByOcr).toBe(true);
    expect(dossier.text).toContain('Quarterly invoice total');
    expect(dossier.text).not.toContain('Hanorosas');

    // A later plain index of the file still reads it by OCR.
    await ws.brainText('index', id);
    expect((await ws.brainJson<Dossier>('dossier', id)).text).toContain('Paid on March 14 2024');

    const back = await ws.brainJson<{ reading: unknown[]; indexed: { id: string }[] }>(
      'index',
      '--text-layer',
      id,
    );
    expect(back.reading).toEqual([{ id, label: 'form.pdf', ocr: false }]);
    expect(back.indexed).toMatchObject([{ id }]);
    const after = await ws.brainJson<Dossier>('dossier', id);
    expect(after.item).not.toHaveProperty('readByOcr');
    expect(after.text).toBe(GARBAGE);
  });
});
