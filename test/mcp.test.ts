/**
 * `brain mcp` as agents use it: real server processes driven by the SDK's Client, over stdio and
 * over Streamable HTTP, on one real workspace seeded in this process (alice in team eng, bob in
 * team sales, org files, private notes, links to things alice must never see).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '#engine/engine.ts';
import { linkItems } from '#engine/knowledge/graph.ts';
import { upsertNote } from '#engine/knowledge/notes.ts';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

const TINY_MODEL = resolve('test/fixtures/tiny-model');

/** The seeded workspace; its `brain` processes run as alice. */
let ws: CliWorkspace;
const ids: Record<string, string> = {};
const clients: Client[] = [];
const children: ChildProcess[] = [];

// biome-ignore lint/suspicious/noExplicitAny: tool answers are JSON checked by expect(), not by types
type ToolAnswer = { isError: boolean; text: string; json: () => any };

async function stdioClient(
  options: {
    home?: string;
    as?: string;
    agent?: string;
    run?: string;
    modelDir?: string;
    name?: string;
  } = {},
): Promise<{ client: Client; stderr: () => string }> {
  const args = ['mcp'];
  if (options.as) args.push('--as', options.as);
  if (options.agent) args.push('--agent', options.agent);
  if (options.run) args.push('--run', options.run);
  const transport = new StdioClientTransport({
    ...ws.with({ home: options.home, modelDir: options.modelDir }).command(...args),
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const client = new Client({ name: options.name ?? 'vitest-agent', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => err };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { type: string; text: string }[];
  };
  const text = result.content.map((c) => c.text).join('\n');
  return {
    isError: result.isError === true,
    text,
    json: () => {
      try {
        return JSON.parse(text);
      } catch {
        throw new Error(text);
      }
    },
  };
}

async function seed(): Promise<void> {
  const alice = Engine.open({ home: ws.home, modelDir: ws.modelDir });
  alice.addMember('alice', ['eng']);
  alice.addMember('bob', ['sales']);
  const bob = Engine.open({ home: ws.home, user: 'bob', modelDir: ws.modelDir });
  const { files } = ws;
  const write = (name: string, text: string) => {
    writeFileSync(join(files, name), text);
    return join(files, name);
  };
  write(
    'billing.md',
    '# Billing handbook\n\n## Refunds\n\nAnnual plans are refunded pro rata within 30 days of renewal.\n' +
      'Finance approves every refund above 500 euros.\n\n## Invoices\n\nInvoices go out on the first working day.\n',
  );
  const many = ['# Runbook'];
  for (let i = 0; i < 120; i++) many.push(`## Step ${i}\n\nDo step number ${i} of the runbook carefully.`);
  write('runbook.md', many.join('\n\n'));
  const added = await alice.add([join(files, 'billing.md'), join(files, 'runbook.md')]);
  ids.billing = added.added.find((a) => a.path.endsWith('billing.md'))?.id ?? '';
  ids.runbook = added.added.find((a) => a.path.endsWith('runbook.md'))?.id ?? '';
  await bob.add(
    [write('sales-plan.md', '# Sales plan\n\nThe zanzibar deal closes with Globex in March.\n')],
    { scope: 'team:sales' },
  );
  const note = (engine: Engine, label: string, body: string, scope: string) =>
    upsertNote(engine.db, engine.workspaceId, {
      kind: 'fact',
      label,
      body,
      scope,
      actor: engine.user,
      source: 'test',
    }).id;
  ids.bobPrivate = note(bob, 'Bob private', 'Bob keeps the xylophone password here.', 'user:bob');
  ids.salesNote = note(bob, 'Sales secret', 'The quokka discount is 70 percent for Globex.', 'team:sales');
  ids.engNote = note(alice, 'Eng note', 'Deploys of Acme integration happen on Tuesdays.', 'team:eng');
  ids.orgNote = note(alice, 'Org note', 'ACME Inc. is our biggest customer; Acme pays yearly.', 'org');
  ids.hub = note(alice, 'Hub', 'The hub note links to many others.', 'org');
  const origin = { actor: 'test', source: 'test', run: 'seed' };
  const spokes: string[] = [];
  for (let i = 0; i < 30; i++) {
    const id = note(alice, `Spoke ${i}`, `Spoke number ${i}.`, 'org');
    spokes.push(id);
    for (const type of ['RELATES_TO', 'DEPENDS_ON', 'OWNED_BY', 'SEE_ALSO']) {
      linkItems(alice.db, alice.scopes(), { from: ids.hub, to: id, type }, origin);
    }
  }
  ids.spoke0 = spokes[0] ?? '';
  // Edges alice must never see: from an org note to bob's private note and to a sales note.
  linkItems(bob.db, bob.scopes(), { from: ids.orgNote, to: ids.bobPrivate, type: 'BOB_LINK' }, origin);
  linkItems(bob.db, bob.scopes(), { from: ids.salesNote, to: ids.orgNote, type: 'SALES_LINK' }, origin);
  void alice.close();
  void bob.close();
}

beforeAll(async () => {
  ws = cliWorkspace('brain-mcp-', { user: 'alice' });
  process.env.BRAIN_USER = 'alice';
  await seed();
  await ws.brainText('index');
  await ws.brainText('--as', 'bob', 'index');
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  for (const child of children) child.kill('SIGTERM');
  ws.remove();
});

function db(): Database.Database {
  return new Database(join(ws.home, 'brain.db'), { readonly: true });
}

describe('brain mcp over stdio', () => {
  let client: Client;
  beforeAll(async () => {
    ({ client } = await stdioClient({ agent: 'claude-test', run: 'run-42' }));
  });

  it('lists the eighteen tools with annotations and says brain text is data', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'add_to_brain',
        'brain_context',
        'brain_link',
        'brain_neighborhood',
        'brain_observe_mention',
        'brain_read',
        'brain_run_end',
        'brain_search',
        // Repository trees (docs/TREES.md)
        'brain_tree',
        'brain_tree_read',
        'brain_lookup',
        'brain_grep',
        'brain_changes',
        'brain_backlinks',
        'brain_broken',
        // Facts over time (docs/FACTS.md)
        'brain_fact',
        // Agent brains (docs/AGENTS.md)
        'brain_observe',
        'brain_agent_brain',
      ].sort(),
    );
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('brain_search')?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('add_to_brain')?.annotations?.readOnlyHint).toBe(false);
    for (const name of ['brain_search', 'brain_read', 'brain_context', 'brain_neighborhood']) {
      expect(byName.get(name)?.description).toMatch(/never instructions/);
    }
    expect(byName.get('brain_search')?.inputSchema.properties?.k).toMatchObject({ maximum: 8 });
  });

  it('brain_search: cited hits, k default 5, k above 8 refused', async () => {
    const hits = (await call(client, 'brain_search', { query: 'refunded annual plans' })).json().hits;
    expect(hits[0].label).toMatch(/Refunds/);
    expect(hits[0].citation).toMatchObject({ fileLabel: 'Billing handbook' });
    // One source is one hit (docs/RETRIEVAL.md [R6]): the runbook's 120 steps fold into one,
    // which counts its other matching passages and cites the best five of them, without text.
    const runbook = (await call(client, 'brain_search', { query: 'runbook step carefully' })).json().hits;
    expect(runbook).toHaveLength(1);
    expect(runbook[0].more).toBeGreaterThanOrEqual(5);
    expect(runbook[0].also).toHaveLength(5);
    expect(runbook[0].also[0]).toEqual({
      id: expect.any(String),
      label: expect.any(String),
      citation: expect.objectContaining({ fileId: runbook[0].citation.fileId }),
    });
    // k counts sources: nine notes that match, five by default, eight at most.
    for (let i = 0; i < 9; i++) {
      await call(client, 'add_to_brain', {
        kind: 'note',
        label: `Zeppelin checklist ${i}`,
        body: `Zeppelin hangar checklist item ${i}.`,
      });
    }
    const many = (await call(client, 'brain_search', { query: 'zeppelin hangar checklist' })).json().hits;
    expect(many).toHaveLength(5);
    const eight = (await call(client, 'brain_search', { query: 'zeppelin hangar checklist', k: 8 })).json()
      .hits;
    expect(eight).toHaveLength(8);
    const nine = await call(client, 'brain_search', { query: 'runbook', k: 9 });
    expect(nine.isError).toBe(true);
    expect(nine.text).toMatch(/k is at most 8/);
    expect((await call(client, 'brain_search', { query: 'x'.repeat(2001) })).isError).toBe(true);
  });

  it('add_to_brain: writes through with origin, same source_key updates in place, limits', async () => {
    const first = (
      await call(client, 'add_to_brain', {
        kind: 'decision',
        label: 'Release train',
        body: 'We ship the desktop app every second Thursday.',
        source_key: 'eng/release-train',
      })
    ).json();
    expect(first).toMatchObject({ created: true, version: 1, scope: 'org' });
    const again = (
      await call(client, 'add_to_brain', {
        kind: 'decision',
        label: 'Release train',
        body: 'We ship the desktop app every Thursday.',
        source_key: 'eng/release-train',
      })
    ).json();
    expect(again).toMatchObject({ id: first.id, created: false, version: 2 });
    const d = db();
    const rows = d.prepare("SELECT * FROM items WHERE source_key = 'eng/release-train'").all() as Record<
      string,
      unknown
    >[];
    d.close();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      body: 'We ship the desktop app every Thursday.',
      origin_actor: 'agent:claude-test/user:alice',
      origin_source: 'agent-tool',
      origin_run: 'run-42',
    });
    const hits = (await call(client, 'brain_search', { query: 'desktop app Thursday' })).json().hits;
    expect(hits[0].id).toBe(first.id);

    const big = await call(client, 'add_to_brain', { kind: 'fact', label: 'Big', body: 'x'.repeat(20_001) });
    expect(big.isError).toBe(true);
    expect(big.text).toMatch(/body is over 20000 characters/);
    const longLabel = await call(client, 'add_to_brain', { kind: 'fact', label: 'l'.repeat(301), body: 'b' });
    expect(longLabel.text).toMatch(/label is over 300/);
    const foreign = await call(client, 'add_to_brain', {
      kind: 'fact',
      label: 'L',
      body: 'B',
      scope: 'team:sales',
    });
    expect(foreign).toMatchObject({ isError: true });
    expect(foreign.text).toMatch(/^error\[forbidden\]/);
    const bad = await call(client, 'add_to_brain', { kind: 'fact', label: 'L', body: 'B', scope: 'galaxy' });
    expect(bad.text).toMatch(/^error\[validation-failed\]: Unknown scope/);
  });

  it('brain_observe_mention: finds the entity by normalised name per scope, or creates it', async () => {
    const a = (
      await call(client, 'brain_observe_mention', {
        item_id: ids.orgNote,
        name: 'ACME Inc.',
        kind: 'company',
        quote: 'ACME Inc.',
      })
    ).json();
    expect(a.entity).toMatchObject({ created: true, scope: 'org', storageKind: 'entity', kind: 'company' });
    expect(a.edge).toMatchObject({ type: 'MENTIONS', from: ids.orgNote, to: a.entity.id });
    expect(a.edge.props).toMatchObject({ mention: 'ACME Inc.', span: { start: 0, end: 9 } });
    const b = (
      await call(client, 'brain_observe_mention', {
        item_id: ids.orgNote,
        name: 'Acme',
        kind: 'company',
        span: { start: 35, end: 39 },
      })
    ).json();
    expect(b.entity).toMatchObject({ id: a.entity.id, created: false });
    const eng = (
      await call(client, 'brain_observe_mention', {
        item_id: ids.engNote,
        name: 'Acme',
        kind: 'company',
        quote: 'Acme',
      })
    ).json();
    expect(eng.entity).toMatchObject({ created: true, scope: 'team:eng' });
    expect(eng.entity.id).not.toBe(a.entity.id);

    const missing = await call(client, 'brain_observe_mention', {
      item_id: 'n_nope',
      name: 'X',
      kind: 'person',
      quote: 'x',
    });
    expect(missing.text).toMatch(/^error\[not-found\]/);
    const notThere = await call(client, 'brain_observe_mention', {
      item_id: ids.orgNote,
      name: 'Initech',
      kind: 'company',
      quote: 'Initech',
    });
    expect(notThere.text).toMatch(/does not occur/);
    const outside = await call(client, 'brain_observe_mention', {
      item_id: ids.orgNote,
      name: 'Acme',
      kind: 'company',
      span: { start: 0, end: 5000 },
    });
    expect(outside.text).toMatch(/outside/);
    const badKind = await call(client, 'brain_observe_mention', {
      item_id: ids.orgNote,
      name: 'A',
      kind: 'planet',
      quote: 'A',
    });
    expect(badKind.isError).toBe(true);
  });

  it('brain_link: custom edges; SAME_AS never merges anything', async () => {
    const d1 = db();
    const before = (d1.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n;
    d1.close();
    const link = (
      await call(client, 'brain_link', { from_id: ids.engNote, to_id: ids.orgNote, type: 'depends on' })
    ).json();
    expect(link).toMatchObject({ type: 'DEPENDS_ON', from: ids.engNote, to: ids.orgNote });
    const same = (
      await call(client, 'brain_link', { from_id: ids.spoke0, to_id: ids.hub, type: 'SAME_AS' })
    ).json();
    expect(same).toMatchObject({ type: 'SAME_AS', props: { soft: true } });
    const d2 = db();
    const after = (d2.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n;
    const both = d2
      .prepare('SELECT id, body, retired_at, superseded_by FROM items WHERE id IN (?, ?)')
      .all(ids.spoke0, ids.hub);
    d2.close();
    expect(after).toBe(before);
    expect(both).toHaveLength(2);
    for (const row of both as { retired_at: string | null; superseded_by: string | null }[]) {
      expect(row.retired_at).toBeNull();
      expect(row.superseded_by).toBeNull();
    }
    expect((await call(client, 'brain_read', { id: ids.spoke0 })).text).toContain('Spoke number 0.');
    expect((await call(client, 'brain_read', { id: ids.hub })).text).toContain('The hub note links');

    expect(
      (await call(client, 'brain_link', { from_id: ids.hub, to_id: 'n_missing', type: 'X' })).text,
    ).toMatch(/^error\[not-found\]/);
    expect((await call(client, 'brain_link', { from_id: ids.hub, to_id: ids.hub, type: 'X' })).isError).toBe(
      true,
    );
    expect(
      (await call(client, 'brain_link', { from_id: ids.hub, to_id: ids.spoke0, type: 'MENTIONS' })).text,
    ).toMatch(/brain_observe_mention/);
  });

  it('brain_neighborhood: 1-2 hops, at most 50 items and 100 edges per hop', async () => {
    const hub = (await call(client, 'brain_neighborhood', { id: ids.hub })).json();
    expect(hub.hops).toHaveLength(1);
    // 120 links to 30 spokes: the edge cap (100) binds first
    expect(hub.hops[0].edges.length).toBe(100);
    expect(hub.hops[0].items.length).toBeGreaterThan(20);
    expect(hub.hops[0].items.length).toBeLessThanOrEqual(31);
    expect(hub.hops[0].truncated).toBe(true);

    const file = (await call(client, 'brain_neighborhood', { id: ids.runbook })).json();
    expect(file.hops[0].items.length).toBe(50);
    expect(file.hops[0].edges.length).toBeLessThanOrEqual(100);
    expect(file.hops[0].truncated).toBe(true);
    const section = file.hops[0].items[0].id;
    const two = (await call(client, 'brain_neighborhood', { id: section, hops: 2 })).json();
    expect(two.hops[0].items.map((i: { id: string }) => i.id)).toEqual([ids.runbook]);
    expect(two.hops[1].items.length).toBe(50);
    const known = new Set([
      section,
      ...two.hops.flatMap((h: { items: { id: string }[] }) => h.items.map((i) => i.id)),
    ]);
    for (const h of two.hops)
      for (const e of h.edges) expect(known.has(e.from) && known.has(e.to)).toBe(true);

    const three = await call(client, 'brain_neighborhood', { id: ids.hub, hops: 3 });
    expect(three.isError).toBe(true);
    expect(three.text).toMatch(/hops is at most 2/);
    expect((await call(client, 'brain_neighborhood', { id: 'n_missing' })).text).toMatch(
      /^error\[not-found\]/,
    );
  });

  it('brain_read: whole items and cited ranges, numbered', async () => {
    const hits = (await call(client, 'brain_search', { query: 'refunded annual plans' })).json().hits;
    const c = hits[0].citation;
    const ranged = await call(client, 'brain_read', {
      id: ids.billing,
      from_line: c.lineStart,
      to_line: c.lineEnd,
    });
    expect(ranged.text).toContain(`${c.lineStart}  ## Refunds`);
    expect(ranged.text).not.toContain('Invoices go out');
    const whole = await call(client, 'brain_read', { id: ids.billing });
    expect(whole.text).toMatch(/\n {0,2}1 {2}# Billing handbook/);
    expect(whole.text).toContain('Invoices go out');
    expect((await call(client, 'brain_read', { id: 'f_nothing' })).text).toMatch(/^error\[not-found\]/);
    expect((await call(client, 'brain_read', { id: ids.billing, from_line: 900 })).text).toMatch(
      /^error\[validation-failed\]/,
    );
  });

  it('brain_context: small talk injects nothing, a relevant message injects cited items within the caps', async () => {
    for (const message of ['yo', 'thanks!']) {
      const quiet = (await call(client, 'brain_context', { message })).json();
      expect(quiet.items).toEqual([]);
      expect(quiet.context).toBe('');
    }
    const ctx = (await call(client, 'brain_context', { message: 'how are annual plans refunded?' })).json();
    expect(ctx.items.length).toBeGreaterThan(0);
    expect(ctx.items.length).toBeLessThanOrEqual(8);
    expect(ctx.items[0].citation).toMatchObject({ fileLabel: 'Billing handbook' });
    expect(ctx.context).toContain('pro rata');
    expect(ctx.tokens).toBeLessThanOrEqual(1500);
    const wide = (await call(client, 'brain_context', { message: 'runbook step number carefully' })).json();
    expect(wide.items.length).toBe(8);
    expect(wide.tokens).toBeLessThanOrEqual(1500);
    const anchored = (await call(client, 'brain_context', { message: 'yo', anchors: [ids.hub] })).json();
    expect(anchored.items.map((i: { id: string }) => i.id)).toEqual([ids.hub]);
    const five = await call(client, 'brain_context', { message: 'x', anchors: ['a', 'b', 'c', 'd', 'e'] });
    expect(five.text).toMatch(/at most 4 anchors/);
  });

  it('brain_run_end: recorded for write-back, work products capped at 8000 characters', async () => {
    const ok = (
      await call(client, 'brain_run_end', {
        status: 'succeeded',
        work_products: 'Shipped the release train note.',
      })
    ).json();
    expect(ok).toMatchObject({ run: 'run-42', status: 'succeeded', writeback: 'pending' });
    const failed = (
      await call(client, 'brain_run_end', { status: 'failed', work_products: 'Nothing.', run_id: 'run-43' })
    ).json();
    expect(failed).toMatchObject({ writeback: 'skipped' });
    const d = db();
    const row = d.prepare("SELECT * FROM runs WHERE id = 'run-42'").get() as Record<string, unknown>;
    d.close();
    expect(row).toMatchObject({ user_id: 'alice', agent: 'claude-test', status: 'succeeded' });
    const big = await call(client, 'brain_run_end', { status: 'succeeded', work_products: 'w'.repeat(8001) });
    expect(big.text).toMatch(/over 8000 characters/);
    expect((await call(client, 'brain_run_end', { status: 'exploded', work_products: 'x' })).isError).toBe(
      true,
    );
  });

  it('never shows alice what belongs to bob or to the sales team, through any tool', async () => {
    for (const query of ['xylophone password', 'quokka discount', 'zanzibar Globex']) {
      expect((await call(client, 'brain_search', { query, k: 8 })).json().hits).toEqual([]);
      expect((await call(client, 'brain_context', { message: query })).json().items).toEqual([]);
    }
    for (const id of [ids.bobPrivate, ids.salesNote]) {
      expect((await call(client, 'brain_read', { id })).text).toBe(
        `error[not-found]: No item with id ${id}.`,
      );
      expect((await call(client, 'brain_neighborhood', { id })).text).toMatch(/^error\[not-found\]/);
      expect((await call(client, 'brain_link', { from_id: ids.hub, to_id: id, type: 'X' })).text).toMatch(
        /^error\[not-found\]/,
      );
      expect(
        (
          await call(client, 'brain_observe_mention', {
            item_id: id,
            name: 'Globex',
            kind: 'company',
            quote: 'Globex',
          })
        ).text,
      ).toMatch(/^error\[not-found\]/);
      const anchored = (await call(client, 'brain_context', { message: 'yo', anchors: [id] })).json();
      expect(anchored.items).toEqual([]);
      expect(anchored.anchors).toEqual([{ id, status: 'not-found' }]);
    }
    const around = (await call(client, 'brain_neighborhood', { id: ids.orgNote, hops: 2 })).text;
    expect(around).not.toContain(ids.bobPrivate);
    expect(around).not.toContain(ids.salesNote);
    expect(around).not.toMatch(/BOB_LINK|SALES_LINK/);
    const taken = await call(client, 'add_to_brain', {
      kind: 'x',
      label: 'Mine now',
      body: 'overwrite',
      source_key: 'eng/release-train',
    });
    expect(taken.isError).toBe(false); // alice's own key: fine
  });

  it('logs every tool call with its outcome for `brain activity`, and only to its user', async () => {
    const { entries } = await ws.brainJson<{
      entries: {
        event: string;
        ok?: boolean;
        tool?: string;
        spoke?: boolean;
        surface: string;
        data: Record<string, unknown>;
      }[];
    }>('activity', '--limit', '500');
    const tools = entries.filter((e) => e.event === 'tool');
    expect(tools.some((e) => e.tool === 'brain_search' && e.ok === false)).toBe(true); // k = 9, refused by the schema
    expect(tools.some((e) => e.tool === 'add_to_brain' && e.ok === true)).toBe(true);
    expect(
      tools.every((e) => e.surface === 'agent' && e.data.agent === 'claude-test' && e.data.run === 'run-42'),
    ).toBe(true);
    const turns = entries.filter((e) => e.event === 'inject');
    expect(turns.some((e) => e.spoke === true)).toBe(true);
    expect(turns.some((e) => e.spoke === false)).toBe(true);
    const bobs = (await ws.brainJson<{ entries: { user: string }[] }>('--as', 'bob', 'activity')).entries;
    expect(bobs.every((e) => e.user === 'bob')).toBe(true);
  });
});

describe('several processes on one workspace', () => {
  it('three MCP processes adding notes at once lose none', async () => {
    const agents = await Promise.all(['a1', 'a2', 'a3'].map((agent) => stdioClient({ agent })));
    await Promise.all(
      agents.map(async ({ client }, n) => {
        for (let i = 0; i < 25; i++) {
          const r = await call(client, 'add_to_brain', {
            kind: 'fact',
            label: `Concurrent ${n}-${i}`,
            body: `note ${n} ${i}`,
          });
          expect(r.isError).toBe(false);
        }
      }),
    );
    const d = db();
    const n = (
      d.prepare("SELECT count(*) AS n FROM items WHERE label LIKE 'Concurrent %'").get() as { n: number }
    ).n;
    const fts = (
      d.prepare("SELECT count(*) AS n FROM items_fts WHERE items_fts MATCH 'concurrent'").get() as {
        n: number;
      }
    ).n;
    d.close();
    expect(n).toBe(75);
    expect(fts).toBe(75);
  });

  it('a failing search still gives brain_context a usable answer that found nothing', async () => {
    const other = join(ws.root, 'broken-home');
    const engine = Engine.open({ home: other, modelDir: ws.modelDir });
    upsertNote(engine.db, engine.workspaceId, {
      kind: 'fact',
      label: 'Refunds',
      body: 'Refunds are pro rata.',
      scope: 'org',
      actor: 'alice',
      source: 'test',
    });
    engine.db.exec('DROP TABLE items_fts'); // every keyword search now throws
    await engine.close();
    const { client } = await stdioClient({ home: other });
    const answer = await call(client, 'brain_context', { message: 'how do refunds work?' });
    expect(answer.isError).toBe(false);
    expect(answer.json()).toMatchObject({ items: [], context: '' });
    expect(answer.json().reason).toMatch(/^search failed: .*items_fts.*; no memories this turn$/);
  });
});

async function startHttp(modelDir: string): Promise<{ url: string; token: string; child: ChildProcess }> {
  const child = ws.with({ modelDir }).spawn(['mcp', '--http', '--agent', 'http-agent'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  await new Promise<void>((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`brain mcp --http did not start: ${err}`)), 20_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (/token: \S+/.test(out)) {
        clearTimeout(timer);
        resolveStart();
      }
    });
  });
  const url = /url: (\S+)/.exec(out)?.[1] ?? '';
  const token = /token: (\S+)/.exec(out)?.[1] ?? '';
  return { url, token, child };
}

function rawPost(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolvePost, reject) => {
    const head = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      ...headers,
    };
    const req = request(url, { method: 'POST', headers: head }, (res) => {
      res.resume();
      resolvePost(res.statusCode ?? 0);
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err),
    );
    req.end(body);
  });
}

describe('brain mcp --http', () => {
  let server: { url: string; token: string; child: ChildProcess };
  beforeAll(async () => {
    server = await startHttp(TINY_MODEL);
  });

  it('serves the tools over Streamable HTTP with the bearer token', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${server.token}` } },
    });
    const client = new Client({ name: 'http-client', version: '1' });
    await client.connect(transport);
    clients.push(client);
    expect((await client.listTools()).tools).toHaveLength(18);
    const hits = (await call(client, 'brain_search', { query: 'refunded annual plans' })).json().hits;
    expect(hits[0].citation.fileLabel).toBe('Billing handbook');
    const added = (
      await call(client, 'add_to_brain', { kind: 'fact', label: 'Via HTTP', body: 'Written over HTTP.' })
    ).json();
    expect(added.semantic).toBe(true); // this process owns the model
    const d = db();
    const row = d.prepare('SELECT origin_actor FROM items WHERE id = ?').get(added.id) as {
      origin_actor: string;
    };
    d.close();
    expect(row.origin_actor).toBe('agent:http-agent/user:alice');
    expect((await call(client, 'brain_search', { query: 'x', k: 9 })).isError).toBe(true);
    const t = db();
    const logged = t
      .prepare("SELECT data FROM telemetry WHERE event = 'tool' AND data LIKE '%http-agent%'")
      .all() as { data: string }[];
    t.close();
    const outcomes = logged.map((l) => JSON.parse(l.data) as { tool: string; ok: boolean });
    expect(outcomes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tool: 'add_to_brain', ok: true }),
        expect.objectContaining({ tool: 'brain_search', ok: false }),
      ]),
    );
  });

  it('refuses a missing or wrong token, a foreign Host or Origin, and oversized bodies', async () => {
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const accept = { accept: 'application/json, text/event-stream' };
    const auth = { authorization: `Bearer ${server.token}` };
    expect(await rawPost(server.url, accept, init)).toBe(401);
    expect(await rawPost(server.url, { ...accept, authorization: 'Bearer nope' }, init)).toBe(401);
    expect(await rawPost(server.url, { ...accept, ...auth, host: 'evil.example:80' }, init)).toBe(403);
    expect(await rawPost(server.url, { ...accept, ...auth, origin: 'https://evil.example' }, init)).toBe(403);
    expect(await rawPost(server.url, { ...accept, ...auth }, 'x'.repeat(2 * 1024 * 1024))).toBe(413);
    expect(await rawPost(server.url, { ...accept, ...auth }, init)).toBe(200);
  });

  it('is the embedding owner: a stdio brain mcp started now embeds through it', async () => {
    expect(existsSync(join(ws.home, 'owner.json'))).toBe(true);
    const { client, stderr } = await stdioClient({ modelDir: TINY_MODEL, agent: 'thin' });
    const added = (
      await call(client, 'add_to_brain', {
        kind: 'fact',
        label: 'Thin client',
        body: 'Embedded by the owner.',
      })
    ).json();
    expect(added.semantic).toBe(true);
    expect(stderr()).toContain(`embeddings via owner pid ${server.child.pid}`);
  });
});
