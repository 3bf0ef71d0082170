/**
 * items.original ([F15] in docs/FORMATS.md) on a real workspace: the bytes of a PDF and of a PDF
 * passage's file, through the caller's scopes exactly as reading the text is: a member who cannot
 * see the file gets the answer a missing id gets; a Markdown file is refused.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildPdf } from '../../../test/ingest-helpers/build-pdf.ts';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { sha256 } from '../ids.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';

let ws: TestWorkspace;
let admin: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  admin = ws.open();
  admin.addMember('alice', ['ops']);
  admin.addMember('carol', []);
});
afterEach(() => ws.cleanup());

const call = (engine: Engine, input: unknown) =>
  runCommand(memberContext(engine, 'app'), 'items.original', input) as Promise<Record<string, unknown>>;

function sectionOf(engine: Engine, fileId: string): string {
  const row = engine.db
    .prepare("SELECT id FROM items WHERE file_id = ? AND storage_kind = 'section' ORDER BY ordinal LIMIT 1")
    .get(fileId) as { id: string };
  return row.id;
}

describe('[F15] items.original', () => {
  it("answers a PDF's bytes for the file and for its passages, to a member who can see it", async () => {
    const bytes = buildPdf([['Page one of the ops report.'], ['Page two: the ferry budget.']]);
    const alice = ws.open({ user: 'alice' });
    const [file] = (await alice.add([ws.write('ops.pdf', bytes)], { scope: 'team:ops' })).added;
    await alice.index();
    const fileId = file?.id ?? '';
    const got = await call(alice, { id: fileId });
    expect(got).toMatchObject({ fileId, label: 'ops.pdf', format: 'pdf', size: bytes.length });
    expect(got.blob).toBe(sha256(bytes));
    expect(new Uint8Array(Buffer.from(got.base64 as string, 'base64'))).toEqual(bytes);
    const section = await call(alice, { id: sectionOf(alice, fileId) });
    expect(section).toEqual(got);

    // Carol is in no team: the file and its passages do not exist for her.
    const carol = ws.open({ user: 'carol' });
    await expect(call(carol, { id: fileId })).rejects.toMatchObject({ code: 'not-found' });
    await expect(call(carol, { id: sectionOf(alice, fileId) })).rejects.toMatchObject({ code: 'not-found' });
  });

  it('refuses a file that is not a PDF, and a note', async () => {
    const [md] = (await admin.add([ws.write('notes.md', '# Notes\n\nNothing here.\n')])).added;
    await expect(call(admin, { id: md?.id })).rejects.toMatchObject({ code: 'validation-failed' });
    await expect(call(admin, { id: 'n_missing' })).rejects.toMatchObject({ code: 'not-found' });
  });
});
