/**
 * An export imported by another member, then connected ([N19], [N20] in docs/PACKAGING.md;
 * docs/SYNC_SPEC.md [S25], [S26], [C8]): real engines on real SQLite files and the real workspace
 * server over HTTP. Ada (connected) exports; carol imports into a new, unconnected workspace and
 * connects. What the import put in carol's own scope is carol's, so the server takes it from her;
 * the org rows keep their authors (ada's, bob's) and go as edits of what the server holds under
 * those authors, never as new rows carol claims to have written; ada's team rows stay out.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCommand } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { writeTx } from '#engine/db/driver.ts';
import type { Engine } from '#engine/engine.ts';
import { exportWorkspace } from '#engine/export/export.ts';
import { importWorkspace } from '#engine/export/import.ts';
import { upsertNote } from '#engine/knowledge/notes.ts';
import { connect, syncNow } from '#engine/sync/index.ts';
import { createTestWorkspace, openAsLocalUser } from '#engine/testing/test-engine.ts';
import { forEachBackend, useServer } from '../server/harness.ts';
import { type Replica, useReplicas } from './replicas.ts';

const refusals = (e: Engine) => e.db.prepare('SELECT reason FROM sync_refused').all() as { reason: string }[];

const call = async <T = Record<string, unknown>>(engine: Engine, name: string, input: unknown) =>
  (await runCommand(memberContext(engine, 'cli'), name, input)) as T;

function note(r: Replica, label: string, scope: string, actor = r.engine.user): void {
  const e = r.engine;
  writeTx(e.db, () =>
    upsertNote(e.db, e.workspaceId, {
      kind: 'fact',
      label,
      body: `${label} words`,
      scope,
      actor,
      source: 'test',
      sourceKey: `note:${label}`,
    }),
  );
}

/** Labels and origins of the items a replica holds, by label. */
function origins(e: Engine): Record<string, { scope: string; origin_actor: string }> {
  const rows = e.db.prepare('SELECT label, scope, origin_actor FROM items').all() as {
    label: string;
    scope: string;
    origin_actor: string;
  }[];
  return Object.fromEntries(rows.map(({ label, ...r }) => [label, r]));
}

forEachBackend('[N19] [N20] an export imported by another member, then connected', (backend) => {
  const env = useServer(backend);
  const replica = useReplicas(env);

  /** Ada's workspace as she exports it: her own notes (one by her agent), org notes of hers and bob's, a team note. */
  async function adaExport(): Promise<{ out: string; ada: Replica; bob: Replica }> {
    const ada = await replica('ada', ['eng']);
    const bob = await replica('bob', ['eng']);
    note(ada, 'ada diary', 'user:ada');
    note(ada, 'ada agent notes', 'user:ada', 'agent:coder/user:ada');
    note(ada, 'ada org', 'org');
    note(ada, 'ada team', 'team:eng');
    await ada.engine.add([ada.ws.write('private.md', '# Private\n\nAda keeps this to herself.\n')], {
      scope: 'user:ada',
    });
    await ada.engine.index();
    note(bob, 'bob org', 'org');
    for (const r of [ada, bob, ada]) await syncNow(r.engine);
    expect(refusals(ada.engine)).toEqual([]);
    const out = join(ada.ws.files, 'export');
    await exportWorkspace(ada.engine, out);
    return { out, ada, bob };
  }

  /** Carol's new workspace (local member `local`), the export imported, connected as `member`. */
  async function importAndConnect(out: string, local: string, member: string) {
    const ws = createTestWorkspace();
    const carol = openAsLocalUser(local, { home: ws.home, modelDir: join(ws.home, 'no-model') });
    const report = importWorkspace(carol, out);
    const code = await env().admin.invite({ user: member });
    const joined = await connect(carol, env().url, code);
    return { ws, carol, report, joined };
  }

  it('[N19] [S26] what the import put in the importer’s own scope is sent as theirs; org rows keep their authors', async () => {
    const { out, bob } = await adaExport();
    const { ws, carol, report, joined } = await importAndConnect(out, 'carol', 'carol');
    try {
      expect(report.leftOut.teams).toEqual(['eng']);
      expect(joined.syncError).toBeNull();
      await syncNow(carol);
      expect(refusals(carol)).toEqual([]);
      const held = origins(carol);
      expect(held['ada diary']).toEqual({ scope: 'user:carol', origin_actor: 'carol' });
      expect(held['ada agent notes']).toEqual({
        scope: 'user:carol',
        origin_actor: 'agent:coder/user:carol',
      });
      expect(held['private.md']).toEqual({ scope: 'user:carol', origin_actor: 'carol' });
      expect(held['ada org']).toEqual({ scope: 'org', origin_actor: 'ada' });
      expect(held['bob org']).toEqual({ scope: 'org', origin_actor: 'bob' });
      expect(held['ada team']).toBeUndefined();
      // The org rows were not made anew under carol: bob still sees one 'ada org', by ada.
      await syncNow(bob.engine);
      const seen = bob.engine.db
        .prepare("SELECT origin_actor FROM items WHERE label IN ('ada org', 'bob org') ORDER BY label")
        .all();
      expect(seen).toEqual([{ origin_actor: 'ada' }, { origin_actor: 'bob' }]);
      const hits = await call<{ hits: unknown[] }>(carol, 'search.query', { query: 'herself' });
      expect(hits.hits.length).toBeGreaterThan(0);
    } finally {
      await ws.cleanup();
    }
  });

  it('[N19] [C8] imported under a local name and connected as another member, the own rows follow to that member', async () => {
    const { out } = await adaExport();
    const { ws, carol, joined } = await importAndConnect(out, 'carol', 'cy');
    try {
      expect(joined.syncError).toBeNull();
      await syncNow(carol);
      expect(refusals(carol)).toEqual([]);
      const held = origins(carol);
      expect(held['ada diary']).toEqual({ scope: 'user:cy', origin_actor: 'cy' });
      expect(held['ada agent notes']).toEqual({ scope: 'user:cy', origin_actor: 'agent:coder/user:cy' });
    } finally {
      await ws.cleanup();
    }
  });
});
