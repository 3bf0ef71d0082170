/**
 * Restoring a backup from the app while `brain serve` keeps running ([N18] in docs/PACKAGING.md):
 * through the browser host's HTTP API, as Settings → Backups does. The window is told to reload,
 * the restored workspace answers, and agents' MCP endpoint (same token) and the embedding owner's
 * owner.json are back on the new engine.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { until } from '#engine/testing/until.ts';
import { readEvents, servedWorkspace } from './serve-process.ts';

const serve = servedWorkspace('brain-serve-restore-');

async function invoke<T = Record<string, unknown>>(name: string, input: unknown = {}): Promise<T> {
  const res = await fetch(`${serve().base}/api/invoke/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${serve().token}` },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as { ok: boolean; data: T; error?: { message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.message}`);
  return body.data;
}

const found = async (query: string) =>
  (await invoke<{ hits: unknown[] }>('search.query', { query })).hits.length;

/** Added and indexed as a drop is, then found. */
async function addAndIndex(name: string, text: string, word: string): Promise<void> {
  const path = join(serve().root, 'files', name);
  writeFileSync(path, text);
  const report = await invoke<{ added: { id: string }[] }>('files.add', { paths: [path] });
  await invoke('files.index', { ids: report.added.map((a) => a.id) });
  await until(
    () => found(word),
    (n) => n > 0,
    { ms: 60_000, label: `${name} indexed` },
  );
}

async function mcpTools(): Promise<string[]> {
  const client = new Client({ name: 'restore-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${serve().base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${serve().mcpToken}` } },
    }),
  );
  const tools = await client.listTools();
  await client.close();
  return tools.tools.map((t) => t.name);
}

describe('[N18] brain serve restores a backup in place', () => {
  it('restores through the HTTP API, tells the window, and serves the restored workspace and agents after', async () => {
    await addAndIndex('kept.md', '# Kept\n\nThe pelican budget.\n', 'pelican');
    const { taken } = await invoke<{ taken: { name: string } }>('backups.create');
    await addAndIndex('gone.md', '# Gone\n\nThe marmot launch.\n', 'marmot');
    expect(await found('marmot')).toBe(1);
    expect(await mcpTools()).toContain('brain_search');

    const events: string[] = [];
    const stop = new AbortController();
    const reading = readEvents(serve(), events, stop.signal).catch(() => undefined);
    await until(
      () => events.join(''),
      (text) => text.length > 0,
      { ms: 10_000, label: 'events open' },
    );
    const report = await invoke<{ restored: string }>('backups.restore', { name: taken.name });
    expect(report.restored).toBe(taken.name);
    await until(
      () => events.join(''),
      (text) => text.includes('"restored"'),
      { ms: 10_000, label: 'restored told' },
    );
    stop.abort();
    await reading;

    expect(await found('marmot')).toBe(0);
    expect(await found('pelican')).toBe(1);
    expect(await mcpTools()).toContain('brain_search');
    const owner = JSON.parse(readFileSync(join(serve().home, 'owner.json'), 'utf8')) as { pid: number };
    expect(owner.pid).toBe(serve().child.pid);
  }, 180_000);
});
