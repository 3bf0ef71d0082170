/**
 * `brain unlock` on a file that is not waiting for a password (docs/FORMATS.md [F12]): a corrupt
 * PDF fails with its name, what is wrong with it, and that unlock is for files whose state says
 * "password-protected", so no one goes on trying passwords on it.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

const CORRUPT_PDF = '/work/shared/fixtures/pdf/pdfjs-bug1020226.pdf';

let ws: CliWorkspace;

beforeEach(() => {
  ws = cliWorkspace('brain-cli-unlock-not-locked-');
});
afterEach(() => ws.remove());

describe('[F12] brain unlock on a file that needs no password', () => {
  it('names the file and says it is not waiting for a password', async () => {
    copyFileSync(CORRUPT_PDF, join(ws.files, 'broken.pdf'));
    const added = await ws.brainJson<{ added: { id: string }[] }>('add', ws.files);
    const id = added.added[0]!.id;
    await ws.brain('index');
    const pw = join(ws.root, 'pw');
    writeFileSync(pw, 'secret\n');

    const r = await ws.brain('unlock', id, '--password-file', pw);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error\[refused\]: broken\.pdf: corrupt or unreadable PDF: /);
    expect(r.stderr).toContain(
      'broken.pdf is not waiting for a password: unlock is for files whose state says "password-protected".',
    );
  }, 60_000);
});
