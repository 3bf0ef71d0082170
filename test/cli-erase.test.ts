/**
 * `brain erase` as scripts see it (docs/FACTS.md [K14]): real processes on one real workspace,
 * stdin a pipe. Without a terminal it erases only when told `--yes`; a member who is not the local
 * admin is refused before anything is read, and nothing changes; the admin's erase leaves nothing
 * of the file for `read`, `search` or `activity`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;

beforeEach(() => {
  ws = cliWorkspace('brain-cli-erase-');
});
afterEach(() => ws.remove());

function items(): { id: string; storage_kind: string }[] {
  const db = new Database(join(ws.home, 'brain.db'), { readonly: true });
  const rows = db.prepare('SELECT id, storage_kind FROM items ORDER BY rowid').all();
  db.close();
  return rows as { id: string; storage_kind: string }[];
}

describe('[K14] brain erase', () => {
  // A dozen `brain` processes: seconds each on a loaded two-core machine.
  it('asks first, erases with --yes, and is refused for a member who is not the local admin', {
    timeout: 240_000,
  }, async () => {
    const path = join(ws.files, 'handbook.md');
    writeFileSync(path, '# Handbook\n\nThe quokka wombat timetable.\n\n## Payroll\n\nPaid on the 25th.\n');
    const added = JSON.parse((await ws.brain('add', path, '--json')).stdout) as { added: { id: string }[] };
    const id = added.added[0]?.id ?? '';
    expect((await ws.brain('index')).code).toBe(0);
    expect((await ws.brain('members', 'add', 'bob')).code).toBe(0);
    const before = items();
    expect(before).toHaveLength(3);

    const member = await ws.with({ user: 'bob' }).brain('erase', id, '--yes');
    expect(member.code).toBe(1);
    expect(member.stderr).toBe(
      "error[forbidden]: Erasing is for the local admin only: the local admin is tester (the workspace's first local user), not bob.\n",
    );
    const unasked = await ws.brain('erase', id);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toMatch(
      /^error\[validation-failed\]: Erasing handbook\.md deletes it for good: pass --yes/,
    );
    const section = before.find((r) => r.storage_kind === 'section')?.id ?? '';
    const wrong = await ws.brain('erase', section, '--yes');
    expect(wrong.stderr).toMatch(/^error\[validation-failed\]: .* is a section of .*: erase the file\./);
    expect(items()).toEqual(before);

    const erased = await ws.brain('erase', id, '--yes');
    expect(erased.code).toBe(0);
    expect(erased.stdout).toBe(
      'erased handbook.md with 0 earlier versions, 2 sections, 2 links and 1 stored file; 0 facts retired.\n',
    );
    expect(items()).toEqual([]);
    expect((await ws.brain('read', id)).stderr).toMatch(/^error\[not-found\]/);
    expect(await ws.brainJson('search', 'quokka wombat')).toMatchObject({ hits: [] });
    const activity = await ws.brainText('activity');
    expect(activity).not.toContain('handbook');
    expect(activity).toContain('item.erase');
    const again = await ws.brain('erase', id, '--yes', '--json');
    expect(again.stderr).toMatch(/^error\[not-found\]: No item with id/);
  });
});
