/**
 * The password-protected files of ../shared/fixtures (MANIFEST.md gives each password): each is
 * added, fails indexing as "needs a password", opens with its password through files.unlock and
 * yields words you can see in it; a wrong password is refused and changes nothing. The R5 PDF with
 * the non-ASCII password 'pässwört' opens (docs/FORMATS.md [F12]).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { Engine } from '#engine/engine.ts';
import { createTestWorkspace, type TestWorkspace } from '#engine/testing/test-engine.ts';
import { needsPassword } from '#shared/password.ts';

const FIXTURES = join(resolve(process.env.BRAIN_SHARED_DIR ?? '../shared'), 'fixtures');

/** Each fixture, its password, and words it shows once opened. */
const LOCKED: [string, string, string][] = [
  ['pdf/pdfjs-issue21579.pdf', 'pässwört', 'decryption succeeded'],
  ['pdf/pdfjs-issue6010_1.pdf', 'abc', 'Issue 6010'],
  ['pdf/sf-libreoffice-writer-password.pdf', 'openpassword', 'Lorem ipsum dolor sit amet'],
  ['pdf/pypdf-crazyones-encrypted-256.pdf', 'password', 'Heres to the crazy ones'],
  ['pdf/tika-testPassword4Spaces.pdf', '    ', 'Just some text'],
  ['docx/tika-testWORD_protected_passtika.docx', 'tika', 'This is an encrypted Word 2007 File'],
  ['xlsx/excelize-encryptAES.xlsx', 'password', 'SECRET'],
  ['xlsx/tika-testEXCEL_protected_passtika.xlsx', 'tika', 'This is an Encrypted Excel spreadsheet'],
];

type Row = { id: string; label: string; state: string; reason: string | null };

describe.runIf(existsSync(FIXTURES))('[F11] [F12] password-protected fixtures', () => {
  let ws: TestWorkspace;
  let engine: Engine;
  const byName = new Map<string, Row>();
  const call = (name: string, input: unknown) => runCommand(memberContext(engine, 'app'), name, input);

  beforeAll(async () => {
    ws = createTestWorkspace();
    engine = ws.open();
    await engine.add([
      ...LOCKED.map(([f]) => join(FIXTURES, f)),
      join(FIXTURES, 'pdf/pdfjs-empty_protected.pdf'),
    ]);
    await engine.index();
    const list = (await call('files.list', {})) as { rows: Row[] };
    for (const r of list.rows) byName.set(r.label, r);
  }, 120_000);
  afterAll(async () => ws.cleanup());

  it('each needs its password, and an empty user password opens without one', () => {
    for (const [file] of LOCKED) {
      const row = byName.get(file.split('/')[1]!);
      expect(row?.state, file).toBe('failed');
      expect(needsPassword(row?.reason), `${file}: ${row?.reason}`).toBe(true);
    }
    expect(byName.get('pdfjs-empty_protected.pdf')?.state).toBe('indexed');
  });

  it('a wrong password is refused and changes nothing', async () => {
    const row = byName.get('tika-testWORD_protected_passtika.docx')!;
    await expect(call('files.unlock', { id: row.id, password: 'Tika' })).rejects.toMatchObject({
      code: 'refused',
      message: 'wrong password for tika-testWORD_protected_passtika.docx',
    });
    const after = (await call('files.list', { q: 'passtika.docx' })) as { rows: Row[] };
    expect(after.rows[0]).toMatchObject({ state: 'failed', reason: row.reason });
  });

  it('each opens with its password and shows its words, the non-ASCII R5 PDF too', async () => {
    for (const [file, password, words] of LOCKED) {
      const row = byName.get(file.split('/')[1]!)!;
      const answer = (await call('files.unlock', { id: row.id, password })) as { sections: number };
      expect(answer.sections, file).toBeGreaterThan(0);
      const text = (await engine.read(row.id)).text;
      expect(text.replace(/\s+/g, ' '), file).toContain(words);
      const hits = (await engine.search(words, { mode: 'keyword' })).hits;
      expect(
        hits.some((h) => h.citation?.fileId === row.id || h.id === row.id),
        `${file} found by "${words}"`,
      ).toBe(true);
    }
  }, 120_000);
});
