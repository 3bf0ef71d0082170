/**
 * `brain import` of a crafted export ([N17] in docs/PACKAGING.md): someone hands a member a folder
 * and the member imports it. Whatever the folder says, the import writes only what an export of one
 * member could hold — scopes that member could see, their own runs, records whose ids the engine
 * would derive — and anything else is refused by file and line before a row is written. Real
 * workspaces on real SQLite files; the export is made by the engine, then edited as an attacker would.
 */
import {
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '#shared/constants.ts';
import { versionAtRunEnd } from '../agents/mount.ts';
import { observe } from '../agents/observations.ts';
import { synthesizeAgent } from '../agents/synthesize.ts';
import type { Engine } from '../engine.ts';
import { observationId } from '../ids.ts';
import { dumpTables } from '../testing/db-dump.ts';
import { brainOf } from '../testing/scripted-brain.ts';
import { type ScriptedModel, startScriptedModel } from '../testing/scripted-model.ts';
import { createTestWorkspace, openAsLocalUser, type TestWorkspace } from '../testing/test-engine.ts';
import { recordRunEnd } from '../writeback/run-end.ts';
import { exportWorkspace } from './export.ts';
import { importWorkspace } from './import.ts';
import { MAX_LINE_BYTES } from './jsonl.ts';

let source: TestWorkspace;
let target: TestWorkspace;
let engine: Engine;
let model: ScriptedModel;
let out: string;

/**
 * The member (in team eng) with a file, a note in the team, an agent `coder` with one version, two
 * of its observations, a person's feedback and an ended run; exported once.
 */
beforeEach(async () => {
  source = createTestWorkspace();
  target = createTestWorkspace();
  engine = source.open();
  model = await startScriptedModel((req) => brainOf(req));
  engine.addMember(engine.user, ['eng']);
  await engine.add([source.write('handbook.md', '# Handbook\n\nSix weeks of sabbatical.\n')]);
  await engine.index();
  const who = { workspaceId: engine.workspaceId, user: engine.user };
  observe(engine.db, { ...who, agent: 'coder', run: 'run-1' }, { type: 'gotcha', text: 'tests need TZ=UTC' });
  observe(
    engine.db,
    { ...who, agent: 'coder', run: null },
    { type: 'decision', text: 'vitest', payload: { tool: 'vitest' } },
  );
  const row = engine.db.prepare("SELECT * FROM agents WHERE name = 'coder'").get() as Parameters<
    typeof synthesizeAgent
  >[1];
  const access = { baseUrl: model.url, model: 'scripted', key: null };
  const made = await synthesizeAgent(engine.db, row, access, { user: engine.user, force: true });
  expect(made.version?.number).toBe(1);
  const read = versionAtRunEnd(engine.db, who, 'coder', 'run-1');
  recordRunEnd(engine.db, {
    run: 'run-1',
    ...who,
    agent: 'coder',
    status: 'succeeded',
    workProducts: 'fixed the flake',
    startedAt: null,
    brainVersion: read.version,
    brainAgent: read.agentId,
  });
  observe(engine.db, { ...who, agent: null, run: 'run-1' }, { type: 'human_thumbs_up', text: 'good run' });
  out = join(source.files, 'export');
  await exportWorkspace(engine, out);
});
afterEach(async () => {
  await model.close();
  await source.cleanup();
  await target.cleanup();
});

/** Replaces the first line of `file` that `pick` chooses by `change` (on its JSON); gives the way back. */
function tamper(
  file: string,
  pick: (line: Record<string, unknown>) => boolean,
  change: (line: Record<string, unknown>) => void,
): { line: number; restore: () => void } {
  const path = join(out, file);
  const original = readFileSync(path, 'utf8');
  const lines = original.split('\n');
  const at = lines.findIndex((l) => l.trim() !== '' && pick(JSON.parse(l)));
  if (at < 0) throw new Error(`no line to tamper with in ${file}`);
  const json = JSON.parse(lines[at] as string) as Record<string, unknown>;
  change(json);
  lines[at] = JSON.stringify(json);
  writeFileSync(path, lines.join('\n'));
  return { line: at + 1, restore: () => writeFileSync(path, original) };
}

/** Replaces the raw text of line `n` (1-based) of `file`; gives the way back. */
function rawLine(file: string, n: number, text: string): () => void {
  const path = join(out, file);
  const original = readFileSync(path, 'utf8');
  const lines = original.split('\n');
  lines[n - 1] = text;
  writeFileSync(path, lines.join('\n'));
  return () => writeFileSync(path, original);
}

const any = () => true;

/** The import into a new workspace is refused with `message`, and that workspace is unchanged. */
function refused(message: RegExp, as = 'carol'): void {
  const fresh = openAsLocalUser(as, { home: target.home, modelDir: join(target.home, 'no-model') });
  try {
    const before = dumpTables(fresh.db);
    expect(() => importWorkspace(fresh, out)).toThrow(message);
    expect(dumpTables(fresh.db)).toEqual(before);
  } finally {
    fresh.db.close();
  }
}

describe('[N17] brain import of a crafted export', () => {
  it('the export as made imports (the checks below refuse only what was changed)', async () => {
    const fresh = openAsLocalUser('carol', { home: target.home, modelDir: join(target.home, 'no-model') });
    const report = importWorkspace(fresh, out);
    expect(report.counts).toMatchObject({ files: 1, notes: 0, agents: 1, agentVersions: 1, runs: 1 });
    await fresh.close();
  });

  it('refuses rows in a scope the exporting member could not see: another member’s, a team not in teams.jsonl', () => {
    for (const [file, scope] of [
      ['items.jsonl', 'user:bob'],
      ['items.jsonl', 'team:x'],
      ['agents.jsonl', 'user:bob'],
      ['agents.jsonl', 'team:x'],
      ['observations.jsonl', 'user:bob'],
      ['observations.jsonl', 'team:x'],
    ] as const) {
      const t = tamper(file, any, (l) => {
        l.scope = scope;
      });
      refused(
        new RegExp(
          `${file.replace('.', '\\.')} line ${t.line}: scope ${scope} is not one the exporting member .* could see`,
        ),
      );
      t.restore();
    }
    // A team listed in teams.jsonl is one the member could see: not refused, but carol is in no
    // team here, so its row is left out and counted ([N20]).
    const t = tamper('items.jsonl', any, (l) => {
      l.scope = 'team:eng';
    });
    const fresh = openAsLocalUser('carol', { home: target.home, modelDir: join(target.home, 'no-model') });
    const report = importWorkspace(fresh, out);
    expect(report.leftOut.teams).toEqual(['eng']);
    expect(fresh.db.prepare("SELECT count(*) AS n FROM items WHERE scope = 'team:eng'").get()).toEqual({
      n: 0,
    });
    expect(fresh.db.prepare('SELECT count(*) AS n FROM team_members').get()).toEqual({ n: 0 });
    fresh.db.close();
    t.restore();
  });

  it('refuses a run of another member (an export holds only the member’s own runs)', () => {
    const t = tamper('runs.jsonl', any, (l) => {
      l.user_id = 'bob';
    });
    refused(/runs\.jsonl line 1: run run-1 is bob's, not the exporting member's/);
    t.restore();
  });

  it('refuses a manifest whose member is no member id', () => {
    const path = join(out, 'manifest.json');
    const original = readFileSync(path, 'utf8');
    writeFileSync(path, original.replace(/"member": "[^"]*"/, '"member": "../x"'));
    refused(/manifest\.json is not an Org Brain export's manifest/);
    writeFileSync(path, original);
  });

  it('refuses an agent’s observation with a person’s human_* type, and a person’s without one', () => {
    let t = tamper(
      'observations.jsonl',
      (l) => l.agent !== null,
      (l) => {
        l.type = 'Human_feedback';
      },
    );
    refused(new RegExp(`observations\\.jsonl line ${t.line}: type Human_feedback is a person's`));
    t.restore();
    t = tamper(
      'observations.jsonl',
      (l) => l.agent === null,
      (l) => {
        l.type = 'gotcha';
      },
    );
    refused(new RegExp(`observations\\.jsonl line ${t.line}: a person's observation has a human_\\* type`));
    t.restore();
  });

  it('refuses two observations that become one member’s under one key (their ids would meet on connecting)', () => {
    const lines = readFileSync(join(out, 'observations.jsonl'), 'utf8').trim().split('\n');
    const mine = JSON.parse(lines[0] as string) as Record<string, unknown>;
    // Carol's own observation in the exporting workspace, with the key of one of the member's.
    const key = mine.key as string;
    const carol = {
      ...mine,
      id: observationIdOf('carol', key),
      user_id: 'carol',
      scope: 'org',
    };
    const restore = rawLine('observations.jsonl', lines.length + 1, JSON.stringify(carol));
    refused(
      new RegExp(`observations\\.jsonl line ${lines.length + 1}: carol has a second observation ${key}`),
    );
    restore();
  });

  it('refuses JSON nested too deeply to write back, naming the line (not a stack overflow)', () => {
    const deep = `${'['.repeat(20000)}${']'.repeat(20000)}`;
    const edge = readFileSync(join(out, 'edges.jsonl'), 'utf8').split('\n')[0] as string;
    let restore = rawLine('edges.jsonl', 1, edge.replace(/"props":(null|\{[^}]*\})/, `"props":${deep}`));
    refused(/edges\.jsonl line 1: props: nested too deeply/);
    restore();
    const obs = readFileSync(join(out, 'observations.jsonl'), 'utf8').split('\n')[0] as string;
    restore = rawLine('observations.jsonl', 1, obs.replace('"payload":null', `"payload":${deep}`));
    refused(/observations\.jsonl line 1: payload: nested too deeply/);
    restore();
  });

  it(`refuses a line over ${MAX_LINE_BYTES} bytes, naming it, without reading it whole`, () => {
    const restore = rawLine('runs.jsonl', 1, `{"id":"${'x'.repeat(MAX_LINE_BYTES)}"}`);
    refused(new RegExp(`runs\\.jsonl line 1: over ${MAX_LINE_BYTES} bytes`));
    restore();
  });

  it('refuses an item whose id is not of its kind (an agent record’s id among items), or a section of no file', () => {
    let t = tamper(
      'items.jsonl',
      (l) => l.storage_kind === 'file',
      (l) => {
        l.id = `a_${'0'.repeat(20)}`;
      },
    );
    refused(new RegExp(`items\\.jsonl line ${t.line}: id a_0{20} is not the id of a file`));
    t.restore();
    const lines = readFileSync(join(out, 'items.jsonl'), 'utf8').trim().split('\n');
    const section = lines.map((l) => JSON.parse(l)).find((l) => l.storage_kind === 'section');
    t = tamper(
      'items.jsonl',
      (l) => l.id === section.id,
      (l) => {
        l.file_id = l.id;
      },
    );
    refused(new RegExp(`items\\.jsonl line ${t.line}: file_id ${section.id} is not a file of this export`));
    t.restore();
  });

  it('refuses a path in files/ that is a folder, or a link out, naming the line', () => {
    const t = tamper(
      'items.jsonl',
      (l) => l.path === 'files/handbook.md',
      (l) => {
        l.path = 'files/retired';
      },
    );
    refused(new RegExp(`items\\.jsonl line ${t.line}: files/retired is not a file`));
    t.restore();
    mkdirSync(join(source.files, 'outside'), { recursive: true });
    writeFileSync(join(source.files, 'outside', 'secret.md'), 'secret');
    symlinkSync(join(source.files, 'outside', 'secret.md'), join(out, 'files', 'link.md'));
    const l = tamper(
      'items.jsonl',
      (x) => x.path === 'files/handbook.md',
      (x) => {
        x.path = 'files/link.md';
      },
    );
    refused(new RegExp(`items\\.jsonl line ${l.line}: files/link\\.md links outside files/`));
    l.restore();
    const abs = tamper(
      'items.jsonl',
      (x) => x.path === 'files/handbook.md',
      (x) => {
        x.path = join(out, 'files', 'handbook.md');
      },
    );
    refused(new RegExp(`items\\.jsonl line ${abs.line}: path .* is outside files/`));
    abs.restore();
  });

  it('refuses a manifest or a lines file that is no regular file (endless, or waiting for a writer), and a huge manifest', () => {
    const manifest = join(out, 'manifest.json');
    const text = readFileSync(manifest, 'utf8');
    rmSync(manifest);
    symlinkSync('/dev/zero', manifest);
    refused(/manifest\.json is not a file/);
    rmSync(manifest);
    writeFileSync(manifest, text.replace('"counts": {', `"pad": "${' '.repeat(2 << 20)}", "counts": {`));
    refused(/manifest\.json is over 1048576 bytes/);
    writeFileSync(manifest, text);
    const runs = join(out, 'runs.jsonl');
    rmSync(runs);
    // A folder stands for any file that is not regular (a pipe would wait for a writer forever).
    mkdirSync(runs);
    refused(/runs\.jsonl is not a file/);
  });

  it('takes an original whose name starts with two dots: it is inside files/ (as the export names it)', async () => {
    renameSync(join(out, 'files', 'handbook.md'), join(out, 'files', '..handbook.md'));
    tamper(
      'items.jsonl',
      (l) => l.path === 'files/handbook.md',
      (l) => {
        l.path = 'files/..handbook.md';
      },
    );
    const fresh = openAsLocalUser('carol', { home: target.home, modelDir: join(target.home, 'no-model') });
    expect(importWorkspace(fresh, out).counts.files).toBe(1);
    await fresh.close();
  });

  it('refuses an original larger than any file a workspace keeps, before reading it', () => {
    const line =
      readFileSync(join(out, 'items.jsonl'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('"path":"files/handbook.md"')) + 1;
    truncateSync(join(out, 'files', 'handbook.md'), MAX_FILE_BYTES + 1);
    refused(new RegExp(`items\\.jsonl line ${line}: files/handbook\\.md is over ${MAX_FILE_BYTES} bytes`));
  });

  it('refuses originals read through a files/ folder that is itself a link out of the export', () => {
    // files/ links to a folder elsewhere holding a file of the same bytes: still not the export's.
    const elsewhere = join(source.files, 'elsewhere');
    renameSync(join(out, 'files'), elsewhere);
    symlinkSync(elsewhere, join(out, 'files'));
    const line =
      readFileSync(join(out, 'items.jsonl'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('"path":"files/handbook.md"')) + 1;
    refused(new RegExp(`items\\.jsonl line ${line}: files/handbook\\.md links outside files/`));
  });

  it('refuses an agent pointing at a version the export does not hold, and a version whose parent it does not', () => {
    for (const field of ['active_version', 'compare_a', 'compare_b'] as const) {
      const t = tamper('agents.jsonl', any, (l) => {
        l[field] = 99;
      });
      refused(
        new RegExp(
          `agents\\.jsonl line 1: ${field} 99 is not a version of agent "coder" in agent_versions\\.jsonl`,
        ),
      );
      t.restore();
    }
    const t = tamper('agent_versions.jsonl', any, (l) => {
      l.parent = 1;
    });
    refused(/agent_versions\.jsonl line 1: parent 1 is not an earlier version of agent "coder"/);
    t.restore();
  });

  it('refuses an agent whose creator was changed: its id is no longer the one derived (as before)', () => {
    const t = tamper('agents.jsonl', any, (l) => {
      l.creator = 'bob';
    });
    refused(/agents\.jsonl line 1: id a_[0-9a-f]{20} is not the id of bob's agent "coder"/);
    t.restore();
  });
});

function observationIdOf(user: string, key: string): string {
  return observationId(engine.workspaceId, user, key);
}
