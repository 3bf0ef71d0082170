/**
 * Who wrote what, and which teams, after another member imports an export ([N19], [N20] in
 * docs/PACKAGING.md). Real workspaces on real SQLite files: ada exports, carol imports.
 * - [N19] What the import puts in carol's own scope (ada's `user:ada`) is carol's: its items' and
 *   edges' origins name carol (an agent's label kept), as its agents, versions and observations do.
 *   What it puts in the org or a team keeps the member who wrote it, ada and bob alike: carol is not
 *   made the author of anyone's shared rows.
 * - [N20] An import makes nobody a member of a team: rows of a team carol is not a member of in the
 *   importing workspace are left out and counted in the answer (a team that already exists there
 *   with other members is not joined); rows of a team she is a member of there go in.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { observe } from '../agents/observations.ts';
import { writeTx } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import { linkItems } from '../knowledge/graph.ts';
import { upsertNote } from '../knowledge/notes.ts';
import { createTestWorkspace, openAsLocalUser, type TestWorkspace } from '../testing/test-engine.ts';
import { exportWorkspace } from './export.ts';
import { importWorkspace } from './import.ts';

let source: TestWorkspace;
let target: TestWorkspace;
let ada: Engine;
let out: string;

type Row = { label: string; scope: string; origin_actor: string };

function note(label: string, scope: string, actor: string): string {
  return writeTx(ada.db, () =>
    upsertNote(ada.db, ada.workspaceId, {
      kind: 'fact',
      label,
      body: `${label}: body words`,
      scope,
      actor,
      source: 'test',
      sourceKey: `note:${label}`,
    }),
  ).id;
}

/**
 * ada (in team eng, bob too) writes notes in her own scope (one by her agent), in the org and in
 * team eng; bob writes one in the org; a link from her own note to her org note; her agent coder
 * observes in her scope and in team eng (a shared agent's). Exported once.
 */
beforeEach(async () => {
  source = createTestWorkspace();
  target = createTestWorkspace();
  ada = openAsLocalUser('ada', { home: source.home, modelDir: join(source.home, 'no-model') });
  ada.addMember('ada', ['eng']);
  ada.addMember('bob', ['eng']);
  const mine = note('mine', 'user:ada', 'ada');
  note('by agent', 'user:ada', 'agent:coder/user:ada');
  const shared = note('ada org', 'org', 'ada');
  note('bob org', 'org', 'bob');
  note('ada team', 'team:eng', 'ada');
  writeTx(ada.db, () =>
    linkItems(
      ada.db,
      ada.scopes(),
      { from: mine, to: shared, type: 'relates to' },
      { actor: 'ada', source: 'test', run: null },
    ),
  );
  const who = { workspaceId: ada.workspaceId, user: 'ada' };
  observe(ada.db, { ...who, agent: 'coder', run: null }, { type: 'gotcha', text: 'own agent' });
  // helper's first observation makes it, in ada's scope; shared with eng, it keeps the next there.
  observe(ada.db, { ...who, agent: 'helper', run: null }, { type: 'gotcha', text: 'before sharing' });
  ada.db.prepare("UPDATE agents SET scope = 'team:eng' WHERE name = 'helper'").run();
  observe(ada.db, { ...who, agent: 'helper', run: null }, { type: 'gotcha', text: 'shared agent' });
  out = join(source.files, 'export');
  await exportWorkspace(ada, out);
});
afterEach(async () => {
  await ada.close();
  await source.cleanup();
  await target.cleanup();
});

function openCarol(): Engine {
  return openAsLocalUser('carol', { home: target.home, modelDir: join(target.home, 'no-model') });
}

function items(e: Engine): Record<string, Row> {
  const rows = e.db.prepare('SELECT label, scope, origin_actor FROM items ORDER BY label').all() as Row[];
  return Object.fromEntries(rows.map((r) => [r.label, r]));
}

describe('[N19] [N17] an import by another member: authorship follows the scope', () => {
  it("makes what goes into the importer's own scope the importer's, and keeps the author of org rows", async () => {
    const carol = openCarol();
    importWorkspace(carol, out);
    const got = items(carol);
    expect(got.mine).toEqual({ label: 'mine', scope: 'user:carol', origin_actor: 'carol' });
    expect(got['by agent']).toEqual({
      label: 'by agent',
      scope: 'user:carol',
      origin_actor: 'agent:coder/user:carol',
    });
    // Shared rows keep their author, the exporting member's included: carol did not write them.
    expect(got['ada org']).toEqual({ label: 'ada org', scope: 'org', origin_actor: 'ada' });
    expect(got['bob org']).toEqual({ label: 'bob org', scope: 'org', origin_actor: 'bob' });
    // The link from carol's own note (its scope is hers, the narrowest of its ends') is hers.
    const edge = carol.db
      .prepare(
        `SELECT e.origin_actor FROM edges e JOIN items f ON f.id = e.from_id WHERE f.label = 'mine' AND e.type = 'RELATES_TO'`,
      )
      .get();
    expect(edge).toEqual({ origin_actor: 'carol' });
    // Every row in carol's own scope names carol; none names ada there.
    for (const r of Object.values(got))
      if (r.scope === 'user:carol') expect(r.origin_actor).toMatch(/(^|\/user:)carol$/);
    // Her own agent, its observation: carol's, as before.
    expect(carol.db.prepare('SELECT name, creator, scope FROM agents').all()).toEqual([
      { name: 'coder', creator: 'carol', scope: 'user:carol' },
    ]);
    await carol.close();
  });
});

describe('[N20] [N17] an import makes nobody a member of a team', () => {
  it('leaves out the rows of a team the importer is not a member of here, and counts them', async () => {
    const carol = openCarol();
    // Team eng exists in the importing workspace, with dave in it, not carol.
    carol.addMember('dave', ['eng']);
    const report = importWorkspace(carol, out);
    expect(carol.db.prepare("SELECT user_id FROM team_members WHERE team_id = 'eng'").all()).toEqual([
      { user_id: 'dave' },
    ]);
    expect(carol.scopes()).toEqual(['org', 'user:carol']);
    expect(carol.db.prepare("SELECT count(*) AS n FROM items WHERE scope = 'team:eng'").get()).toEqual({
      n: 0,
    });
    expect(carol.db.prepare("SELECT count(*) AS n FROM agents WHERE scope = 'team:eng'").get()).toEqual({
      n: 0,
    });
    expect(carol.db.prepare("SELECT count(*) AS n FROM observations WHERE scope = 'team:eng'").get()).toEqual(
      { n: 0 },
    );
    expect(report.leftOut).toEqual({
      teams: ['eng'],
      // helper's two observations go with it, the one kept in ada's own scope too.
      counts: expect.objectContaining({ notes: 1, agents: 1, observations: 2 }),
    });
    expect(report.counts).toMatchObject({ notes: 4, agents: 1, observations: 1 });
    await carol.close();
  });

  it('does not create a team of teams.jsonl in a workspace that has none', async () => {
    const carol = openCarol();
    const report = importWorkspace(carol, out);
    expect(carol.db.prepare('SELECT count(*) AS n FROM team_members').get()).toEqual({ n: 0 });
    expect(carol.db.prepare('SELECT count(*) AS n FROM teams').get()).toEqual({ n: 0 });
    expect(report.leftOut.teams).toEqual(['eng']);
    await carol.close();
  });

  it('imports the rows of a team the importer is a member of here, keeping their authors', async () => {
    const carol = openCarol();
    carol.addMember('carol', ['eng']);
    const report = importWorkspace(carol, out);
    expect(report.leftOut).toEqual({ teams: [], counts: expect.objectContaining({ notes: 0 }) });
    expect(items(carol)['ada team']).toEqual({ label: 'ada team', scope: 'team:eng', origin_actor: 'ada' });
    expect(carol.db.prepare("SELECT name, creator FROM agents WHERE scope = 'team:eng'").all()).toEqual([
      { name: 'helper', creator: 'ada' },
    ]);
    expect(
      carol.db.prepare("SELECT user_id, scope FROM observations WHERE agent = 'helper' ORDER BY scope").all(),
    ).toEqual([
      { user_id: 'ada', scope: 'team:eng' },
      { user_id: 'carol', scope: 'user:carol' },
    ]);
    await carol.close();
  });
});
