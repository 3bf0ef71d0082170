/**
 * Entities and the graph view in Chromium against `brain serve`: real files from ../shared indexed
 * by the CLI, mentions recorded by an agent over MCP (stdio), then the graph shows them, search
 * focuses a node, a click opens its dossier, expanding adds its neighborhood, and a mention's link
 * opens the cited range. A generated graph of 10,000 nodes and 20,000 edges renders and pans.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, unexpectedProblems } from './support/browser.ts';
import { clickCentre, focus, openGraph } from './support/graph.ts';
import { brain, freshHome } from './support/serve.ts';
import { start } from './support/session.ts';

const SHARED = process.env.BRAIN_SHARED_DIR ?? path.resolve('../shared');
const HANDBOOK = path.join(SHARED, 'corpus/basecamp-handbook/getting-started.md');
const FIXTURE = path.join(SHARED, 'fixtures/md/unstr-eng_spa_mult.md');
const BRAIN = path.resolve('bin/brain.mjs');

type FrameCounter = {
  __frames: number;
  __counting: boolean;
  requestAnimationFrame: (cb: () => void) => number;
};

/** The section of a file whose text holds `quote`. */
function sectionWith(home: string, quote: string): string {
  const db = new Database(path.join(home, 'brain.db'), { readonly: true });
  try {
    const row = db
      .prepare(
        "SELECT id FROM items WHERE storage_kind = 'section' AND retired_at IS NULL AND instr(body, ?) > 0",
      )
      .get(quote) as { id: string } | undefined;
    if (!row) throw new Error(`No section holds "${quote}"`);
    return row.id;
  } finally {
    db.close();
  }
}

async function mentionOverMcp(
  home: string,
  mentions: { item_id: string; name: string; kind: string; quote: string }[],
) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BRAIN, '--home', home, 'mcp', '--agent', 'e2e-agent'],
    env: { ...(process.env as Record<string, string>), BRAIN_MODEL_DIR: path.join(home, 'no-model') },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'graph-e2e', version: '1.0.0' });
  await client.connect(transport);
  try {
    for (const m of mentions) {
      const result = (await client.callTool({ name: 'brain_observe_mention', arguments: m })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      if (result.isError) throw new Error(result.content.map((c) => c.text).join('\n'));
    }
  } finally {
    await client.close();
  }
}

describe('Entities and the graph in a browser', () => {
  it('shows mentions from an agent, focuses, expands, opens dossiers and cited ranges', async () => {
    const home = freshHome();
    await brain(home, ['add', HANDBOOK, FIXTURE, '--json']);
    await brain(home, ['index', '--json']);
    const andrea = sectionWith(home, 'meet with Andrea');
    const basecamp = sectionWith(home, 'log into Basecamp');
    await mentionOverMcp(home, [
      { item_id: andrea, name: 'Andrea', kind: 'person', quote: 'Andrea' },
      { item_id: andrea, name: '37signals', kind: 'company', quote: '37signals' },
      { item_id: basecamp, name: 'Basecamp', kind: 'project', quote: 'Basecamp' },
    ]);
    const listed = JSON.parse(await brain(home, ['entities', '--json'])) as { entities: { label: string }[] };
    expect(listed.entities.map((e) => e.label).sort()).toEqual(['37signals', 'Andrea', 'Basecamp']);

    const { s } = await start(home);
    const { page } = s;
    const canvas = await openGraph(page);
    await expect.poll(() => canvas.getAttribute('data-layout'), { timeout: 30_000 }).toBe('done');
    // Two files and three entities; the mentions come from sections folded into their file.
    expect(Number(await canvas.getAttribute('data-nodes'))).toBe(5);
    expect(Number(await canvas.getAttribute('data-edges'))).toBe(3);
    await page.getByText('5 nodes · 3 edges').waitFor();
    await screenshot(page, 'graph-01-mentions');

    // Search focuses the node; a click in the middle opens its dossier on the right.
    await focus(page, 'Andrea');
    await clickCentre(page);
    const dossier = page.getByRole('complementary', { name: 'Dossier' });
    await dossier.getByRole('heading', { name: 'Andrea' }).waitFor();
    // An entity's dossier opens on its facts (none yet here); its mentions are the next tab.
    await dossier.getByText('No facts about it yet.').waitFor();
    await dossier.getByRole('tab', { name: /Mentions/ }).click();
    const mentions = dossier.getByRole('list', { name: 'Mentions' });
    await mentions.getByText('Andrea', { exact: true }).waitFor();
    await dossier.getByRole('tab', { name: /Related/ }).click();
    await dossier
      .getByRole('list', { name: 'Related entities' })
      .getByRole('button', { name: '37signals' })
      .waitFor();
    await dossier.getByRole('tab', { name: /Mentions/ }).click();
    await screenshot(page, 'graph-02-entity-dossier');

    // Expanding shows its neighborhood: the sections that mention it join the map.
    await page.getByRole('button', { name: 'Expand neighborhood' }).click();
    await page.getByText(/Added 1 node around Andrea/).waitFor();
    expect(Number(await canvas.getAttribute('data-nodes'))).toBe(6);
    expect(Number(await canvas.getAttribute('data-edges'))).toBe(4);

    // The mention's link opens the section with the mention itself highlighted.
    await mentions.getByRole('button', { name: /Open mention in Getting Started/ }).click();
    const cited = dossier.locator('mark.cited');
    await cited.waitFor();
    expect(await cited.textContent()).toBe('Andrea');
    await expect.poll(() => cited.isVisible()).toBe(true);
    await screenshot(page, 'graph-03-cited-range');

    // Another node, found by search and clicked: its own dossier.
    await focus(page, 'Basecamp');
    await clickCentre(page);
    await dossier.getByRole('heading', { name: 'Basecamp' }).waitFor();
    await dossier.getByRole('tab', { name: /Mentions/ }).click();
    await dossier.getByRole('list', { name: 'Mentions' }).getByText('Basecamp', { exact: true }).waitFor();
    expect(unexpectedProblems(s.problems)).toEqual([]);
  });

  it('renders and pans a generated graph of 10,000 nodes and 20,000 edges', {
    timeout: 400_000,
  }, async () => {
    const home = freshHome();
    await brain(home, ['status', '--json']);
    generateGraph(home, 10_000, 20_000);
    const { s } = await start(home);
    const { page } = s;
    const canvas = await openGraph(page);
    await expect.poll(() => canvas.getAttribute('data-nodes'), { timeout: 30_000 }).toBe('10000');
    expect(Number(await canvas.getAttribute('data-edges'))).toBe(20_000);
    // The picture is of the laid-out graph: the layout worker says when it is done.
    await expect.poll(() => canvas.getAttribute('data-layout'), { timeout: 180_000 }).not.toBe('running');
    await painted(page);
    await screenshot(page, 'graph-04-10k-layout');

    const box = await canvas.boundingBox();
    if (!box) throw new Error('no canvas');
    const before = await canvas.getAttribute('data-camera');
    // Frames the page paints while a drag pans the map, with the layout still running in its worker.
    await page.evaluate(() => {
      // (runs in the page: its globals, typed here without the DOM library)
      const w = globalThis as unknown as FrameCounter;
      w.__frames = 0;
      w.__counting = true;
      const tick = () => {
        if (!w.__counting) return;
        w.__frames++;
        w.requestAnimationFrame(tick);
      };
      w.requestAnimationFrame(tick);
    });
    const started = Date.now();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++)
      await page.mouse.move(box.x + box.width / 2 - i * 30, box.y + box.height / 2 - i * 16);
    await page.mouse.up();
    const elapsed = Date.now() - started;
    const frames = await page.evaluate(() => {
      const w = globalThis as unknown as FrameCounter;
      w.__counting = false;
      return w.__frames;
    });
    await expect.poll(() => canvas.getAttribute('data-camera')).not.toBe(before);
    const fps = (frames * 1000) / elapsed;
    console.info(`10k graph: pan took ${elapsed} ms, ${frames} frames (${fps.toFixed(1)} fps)`);
    // Headless Chromium here draws WebGL in software (SwiftShader) on two cores: a GPU does far better.
    expect(fps).toBeGreaterThan(2);
    await painted(page);
    await screenshot(page, 'graph-05-10k-panned');
    expect(unexpectedProblems(s.problems)).toEqual([]);
  });
});

/** Resolves once the page has painted two more frames: what it shows now is on the screen. */
async function painted(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        const w = globalThis as unknown as FrameCounter;
        w.requestAnimationFrame(() => w.requestAnimationFrame(() => done()));
      }),
  );
}

/** Writes a random graph straight into a workspace: notes and entities with links between them. */
function generateGraph(home: string, nodes: number, edges: number): void {
  const db = new Database(path.join(home, 'brain.db'));
  const ws =
    (db.prepare("SELECT value FROM meta WHERE key = 'workspace_id'").get() as { value: string } | undefined)
      ?.value ?? 'ws';
  const now = new Date().toISOString();
  // mulberry32: a seeded generator, so every run draws the same graph.
  let seed = 42;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const item = db.prepare(
    `INSERT INTO items (id, workspace_id, storage_kind, kind, label, body, source_key, indexed, scope,
       origin_actor, origin_source, origin_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, '', ?, 1, 'org', 'generator', 'e2e', ?, ?, ?)`,
  );
  const edge = db.prepare(
    `INSERT INTO edges (id, type, from_id, to_id, props, origin_actor, origin_source, origin_at)
     VALUES (?, ?, ?, ?, '{}', 'generator', 'e2e', ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < nodes; i++) {
      const kind = i % 3 === 0 ? 'entity' : 'note';
      item.run(
        `gen-${i}`,
        ws,
        kind,
        kind === 'entity' ? 'person' : 'fact',
        `Node ${i}`,
        `gen:${i}`,
        now,
        now,
        now,
      );
    }
    // Preferential-ish attachment (a few hubs, many leaves) so the layout has structure; no parallel edges.
    const seen = new Set<string>();
    for (let i = 0; seen.size < edges; i++) {
      const a = Math.floor(random() * nodes);
      const b = Math.floor(random() ** 1.6 * nodes);
      const key = a < b ? `${a}-${b}` : `${b}-${a}`;
      if (a === b || seen.has(key)) continue;
      seen.add(key);
      edge.run(`gen-e-${i}`, i % 5 === 0 ? 'SAME_AS' : 'MENTIONS', `gen-${a}`, `gen-${b}`, now);
    }
  })();
  db.close();
}
