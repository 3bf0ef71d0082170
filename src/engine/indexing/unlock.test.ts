/**
 * files.unlock through the engine's command layer (docs/FORMATS.md [F11]-[F14], docs/SECURITY.md
 * [U1]): an encrypted PDF, DOCX and XLSX added to a real workspace fail indexing as "needs a
 * password"; a wrong password changes nothing; the right one indexes the file, which is then
 * searchable and reads back; the password is nowhere in the workspace's files afterwards.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import officeCrypto from 'officecrypto-tool';
import { beforeEach, describe, expect, it } from 'vitest';
import { needsPassword, UNLOCKED_NOTE } from '#shared/password.ts';
import { buildDocx, buildXlsx } from '../../../test/ingest-helpers/build-office.ts';
import { buildEncryptedPdf } from '../../../test/ingest-helpers/encrypt-pdf.ts';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';

const PASSWORD = 'Zebra-Sesame-9531';
let ws: TestWorkspace;
let engine: Engine;

// A fresh workspace per test, closed and removed after it (the teardown beforeEach returns).
beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
  return () => ws.cleanup();
});

const call = (name: string, input: unknown) => runCommand(memberContext(engine, 'app'), name, input);

type Row = { id: string; label: string; state: string; reason: string | null; health: string[] };
async function rows(): Promise<Map<string, Row>> {
  const list = (await call('files.list', { sort: 'name', dir: 'asc' })) as { rows: Row[] };
  return new Map(list.rows.map((r) => [r.label, r]));
}

/** Every file of the workspace home, as bytes. */
function homeBytes(dir = ws.home): Buffer[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? homeBytes(path) : [readFileSync(path)];
  });
}

async function encryptedFiles(): Promise<Record<string, Uint8Array>> {
  const seal = async (zip: Uint8Array) =>
    new Uint8Array(await officeCrypto.encrypt(Buffer.from(zip), { password: PASSWORD }));
  return {
    'report.pdf': buildEncryptedPdf([['The quokka budget is forty two.']], PASSWORD),
    'plan.docx': await seal(await buildDocx(['The wombat plan ships in May.'])),
    'costs.xlsx': await seal(
      await buildXlsx([
        {
          name: 'Costs',
          rows: [
            ['Item', 'Cost'],
            ['Numbat feed', 12],
          ],
        },
      ]),
    ),
  };
}

describe('[F12] files.unlock', () => {
  it('needs a password, refuses a wrong one and changes nothing, indexes with the right one', async () => {
    const files = await encryptedFiles();
    await engine.add(Object.entries(files).map(([name, bytes]) => ws.write(name, bytes)));
    const report = await engine.index();
    expect(report.indexed).toEqual([]);
    const before = await rows();
    for (const name of Object.keys(files)) {
      const row = before.get(name)!;
      expect(row.state, name).toBe('failed');
      expect(needsPassword(row.reason), `${name}: ${row.reason}`).toBe(true);
    }

    const pdf = before.get('report.pdf')!;
    await expect(call('files.unlock', { id: pdf.id, password: 'not-the-password' })).rejects.toMatchObject({
      code: 'refused',
      message: 'wrong password for report.pdf',
    });
    expect((await rows()).get('report.pdf')).toEqual(pdf);

    for (const name of Object.keys(files)) {
      const answer = await call('files.unlock', { id: before.get(name)!.id, password: PASSWORD });
      expect(answer).toMatchObject({ id: before.get(name)!.id, label: name, sections: 1, mentions: 0 });
    }
    const after = await rows();
    for (const name of Object.keys(files)) {
      expect(after.get(name)).toMatchObject({ state: 'indexed', reason: null });
      expect(after.get(name)!.health).toContain(UNLOCKED_NOTE);
    }

    for (const [query, label] of [
      ['quokka budget', 'report.pdf'],
      ['wombat plan', 'plan.docx'],
      ['numbat feed', 'costs.xlsx'],
    ] as const) {
      const hits = (await engine.search(query, { mode: 'keyword' })).hits;
      const hit = hits.find((h) => h.storageKind === 'section');
      expect(hit?.label, query).toContain(label);
      // [F13] the bytes cannot be read without the password: a passage reads back from the index.
      expect((await engine.read(hit!.id)).text).toBe(hit!.body);
      expect((await engine.read(after.get(label)!.id)).text).toContain(hit!.body);
    }

    // [F14] indexing the same bytes again without the password keeps the index.
    const again = await engine.index([pdf.id]);
    expect(again.indexed).toEqual([{ id: pdf.id, label: 'report.pdf', sections: 1 }]);

    // [U1] the password is in no file of the workspace, in any encoding.
    await engine.close();
    for (const bytes of homeBytes()) {
      expect(bytes.includes(Buffer.from(PASSWORD, 'utf8'))).toBe(false);
      expect(bytes.includes(Buffer.from(PASSWORD, 'utf16le'))).toBe(false);
    }
  }, 60_000);

  it('[F14] a changed file needs the password again', async () => {
    const path = ws.write('report.pdf', buildEncryptedPdf([['First version.']], PASSWORD));
    await engine.add([path]);
    const id = (await rows()).get('report.pdf')!.id;
    await call('files.unlock', { id, password: PASSWORD });
    ws.write('report.pdf', buildEncryptedPdf([['Second version.']], PASSWORD));
    await engine.add([path]);
    await engine.index([id]);
    const row = (await rows()).get('report.pdf')!;
    expect(row.state).toBe('failed');
    expect(needsPassword(row.reason)).toBe(true);
    await call('files.unlock', { id, password: PASSWORD });
    const hits = (await engine.search('second version', { mode: 'keyword' })).hits;
    expect(hits.some((h) => h.body.includes('Second version.'))).toBe(true);
  }, 60_000);

  it('refuses a file in a scope the member cannot see, as if it were not there', async () => {
    engine.addMember('alice', ['ops']);
    engine.addMember('carol', []);
    const alice = ws.open({ user: 'alice' });
    const files = await encryptedFiles();
    const [file] = (await alice.add([ws.write('report.pdf', files['report.pdf']!)], { scope: 'team:ops' }))
      .added;
    await alice.index();
    const carol = ws.open({ user: 'carol' });
    await expect(
      runCommand(memberContext(carol, 'app'), 'files.unlock', { id: file?.id ?? '', password: PASSWORD }),
    ).rejects.toMatchObject({ code: 'not-found' });
    const row = alice.db.prepare('SELECT indexed FROM items WHERE id = ?').get(file?.id) as {
      indexed: number;
    };
    expect(row.indexed).toBe(0);
  });

  it('refuses what is not a file, and a password that is empty', async () => {
    await expect(call('files.unlock', { id: 'nope', password: 'x' })).rejects.toMatchObject({
      code: 'not-found',
    });
    await expect(call('files.unlock', { id: 'nope', password: '' })).rejects.toMatchObject({
      code: 'validation-failed',
    });
  });
});
