/**
 * `brain add --scope` on a file already here, and `brain move`, as scripts see them: real
 * processes (stdin is a pipe, not a terminal) on one real workspace ([S24] in docs/SYNC_SPEC.md).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;

beforeEach(() => {
  ws = cliWorkspace('brain-cli-move-');
});
afterEach(() => ws.remove());

function scopes(): { storage_kind: string; scope: string }[] {
  const db = new Database(join(ws.home, 'brain.db'), { readonly: true });
  const rows = db.prepare('SELECT storage_kind, scope FROM items ORDER BY rowid').all();
  db.close();
  return rows as { storage_kind: string; scope: string }[];
}

describe('[S24] brain add --scope and brain move', () => {
  it('says a re-added file kept its scope, refuses to move without --yes off a terminal, moves with it', async () => {
    const path = join(ws.files, 'handbook.md');
    writeFileSync(path, '# Handbook\n\nWelcome.\n\n## Payroll\n\nPaid on the 25th.\n');
    expect((await ws.brain('members', 'add', 'tester', '--team', 'ops')).code).toBe(0);
    const first = JSON.parse((await ws.brain('add', path, '--json')).stdout) as { added: { id: string }[] };
    const id = first.added[0]?.id ?? '';
    expect((await ws.brain('index')).code).toBe(0);

    const again = await ws.brain('add', path, '--scope', 'team:ops', '--json');
    expect(again.stderr).toBe(
      `kept handbook.md in org (it was added before): to move it, run \`brain move ${id} --scope team:ops\`\n`,
    );
    expect(JSON.parse(again.stdout).scopeKept).toEqual([
      { id, label: 'handbook.md', path, scope: 'org', asked: 'team:ops' },
    ]);

    const refused = await ws.brain('move', id, '--scope', 'team:ops');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error\[validation-failed\]: .*pass --yes to move it without a terminal/);
    expect(new Set(scopes().map((r) => r.scope))).toEqual(new Set(['org']));

    const moved = await ws.brain('move', id, '--scope', 'team:ops', '--yes', '--json');
    expect(moved.code).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({
      id,
      from: 'org',
      to: 'team:ops',
      moved: true,
      sections: 2,
    });
    expect(scopes()).toEqual([
      { storage_kind: 'file', scope: 'team:ops' },
      { storage_kind: 'section', scope: 'team:ops' },
      { storage_kind: 'section', scope: 'team:ops' },
    ]);
    const text = await ws.brain('move', id, '--scope', 'team:ops');
    expect(text.stdout).toBe('handbook.md is already in team:ops: nothing moved.\n');
  });
});
