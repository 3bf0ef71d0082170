/**
 * `brain add --password-file` and `brain unlock` as scripts use them (docs/FORMATS.md [F12],
 * docs/SECURITY.md [U1]): real processes on a real workspace. The password comes from a file (one
 * trailing newline dropped, spaces kept) or standard input, never from an argument; a wrong one
 * fails with its reason and changes nothing; the password is in no file of the home afterwards.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';
import { buildEncryptedPdf } from './ingest-helpers/encrypt-pdf.ts';

let ws: CliWorkspace;
beforeAll(() => {
  ws = cliWorkspace('brain-cli-unlock-');
});
afterAll(() => ws.remove());

type FileRows = { rows: { id: string; label: string; state: string; reason: string | null }[] };

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const path = join(dir, n);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Runs `brain ...args` with `input` on its standard input. */
function withStdin(
  input: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = ws.spawn(args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  child.stdin?.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

describe('[F12] brain add --password-file and brain unlock', () => {
  it('reads the password from a file or stdin, refuses a wrong one, and stores it nowhere', {
    timeout: 240_000,
  }, async () => {
    const spaces = join(ws.files, 'spaces.pdf');
    writeFileSync(spaces, buildEncryptedPdf([['The spaced quokka ledger.']], '    '));
    const pwFile = join(ws.root, 'pw');
    writeFileSync(pwFile, '    \n'); // four spaces, then the newline an editor adds
    const added = await ws.brainJson<{ added: { id: string }[]; unlocked: { sections: number }[] }>(
      'add',
      spaces,
      '--password-file',
      pwFile,
    );
    expect(added.added).toHaveLength(1);
    expect(added.unlocked).toMatchObject([{ sections: 1 }]);

    const locked = join(ws.files, 'locked.pdf');
    writeFileSync(locked, buildEncryptedPdf([['The zebra vault minutes.']], 'Quartz-Lantern-77'));
    await ws.brainJson('add', locked);
    await ws.brain('index');
    const before = (await ws.brainJson<FileRows>('files', 'locked')).rows[0]!;
    expect(before.state).toBe('failed');
    expect(before.reason).toMatch(/^password-protected PDF: enter its password/);

    const wrong = await withStdin('Quartz-Lantern-78\n', 'unlock', before.id, '--password-file', '-');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe('error[refused]: wrong password for locked.pdf\n');
    expect((await ws.brainJson<FileRows>('files', 'locked')).rows[0]).toEqual(before);

    // No password as a plain argument: commander refuses the unknown option as a usage error.
    const argv = await ws.brain('unlock', before.id, '--password', 'Quartz-Lantern-77');
    expect(argv.code).not.toBe(0);

    const right = await withStdin(
      'Quartz-Lantern-77\n',
      'unlock',
      before.id,
      '--password-file',
      '-',
      '--json',
    );
    expect(right.code).toBe(0);
    expect(JSON.parse(right.stdout)).toMatchObject({ id: before.id, label: 'locked.pdf', sections: 1 });
    const search = await ws.brainText('search', 'zebra vault');
    expect(search).toContain('locked.pdf');

    for (const path of filesUnder(ws.home)) {
      expect(readFileSync(path).includes(Buffer.from('Quartz-Lantern-77')), path).toBe(false);
    }
  });
});
