/** `brain serve`: the browser host, as a browser and as an attacker on the same machine see it. */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { until } from '#engine/testing/until.ts';
import { readEvents, servedWorkspace } from './serve-process.ts';

const serve = servedWorkspace('brain-serve-');

const invoke = (name: string, input?: unknown, auth = true) =>
  fetch(`${serve().base}/api/invoke/${name}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(auth ? { Authorization: `Bearer ${serve().token}` } : {}),
    },
    body: input === undefined ? undefined : JSON.stringify(input),
  });

const upload = (name: string, bytes: Uint8Array, path = name) =>
  fetch(`${serve().base}/api/upload?name=${encodeURIComponent(name)}&path=${encodeURIComponent(path)}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${serve().token}` },
    body: bytes,
  });

/** A raw request with a chosen Host header (fetch will not let us set it). */
function withHost(host: string): Promise<number> {
  const { port } = new URL(serve().base);
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path: '/', headers: { Host: host } }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', fail);
    req.end();
  });
}

describe('brain serve', () => {
  it('serves agents too: the MCP endpoint, and the embedding model as the owner', async () => {
    const client = new Client({ name: 'serve-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${serve().base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${serve().mcpToken}` } },
    });
    await client.connect(transport);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('brain_context');
    await client.close();
    const owner = JSON.parse(readFileSync(join(serve().home, 'owner.json'), 'utf8')) as { pid: number };
    expect(owner.pid).toBe(serve().child.pid);
  });

  it('serves the app with the strict CSP and binds to 127.0.0.1 only', async () => {
    const res = await fetch(`${serve().base}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await res.text()).toContain('<div id="root">');
    expect(serve().base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses calls without the token and requests for other hosts', async () => {
    expect((await invoke('app.info', undefined, false)).status).toBe(401); // [H1] in docs/SECURITY.md
    expect(await withHost('evil.example')).toBe(403);
    expect(await withHost(new URL(serve().base).host)).toBe(200);
    const traversal = await fetch(`${serve().base}/..%2f..%2fpackage.json`);
    expect(await traversal.text()).not.toContain('"name": "org-brain"');
  });

  it('answers contract calls and validates their input', async () => {
    const info = (await (await invoke('app.info')).json()) as { ok: boolean; data: { user: string } };
    expect(info).toMatchObject({ ok: true, data: { user: 'tester' } });
    const bad = await invoke('files.list', { limit: 100000 });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, error: { code: 'validation-failed' } });
    expect((await invoke('no.such')).status).toBe(404);
  });

  it('takes uploads, refuses unsupported and oversized ones with reasons, and streams progress events', async () => {
    const events: string[] = [];
    const controller = new AbortController();
    const stream = readEvents(serve(), events, controller.signal);
    const md = await upload(
      'policy.md',
      new TextEncoder().encode('# Leave\n\nParental leave is 20 weeks.\n'),
      'hr/policy.md',
    );
    expect(await md.json()).toMatchObject({
      ok: true,
      data: { added: [{ label: 'policy.md', path: 'hr/policy.md' }] },
    });
    const bmp = await upload(
      'logo.bmp',
      new Uint8Array([0x42, 0x4d, 0x3a, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0]),
    );
    expect(await bmp.json()).toMatchObject({
      ok: true,
      data: { refused: [{ reason: expect.stringMatching(/unsupported/) }] },
    });
    const big = await upload('huge.txt', new Uint8Array(101 * 1024 * 1024));
    expect(await big.json()).toMatchObject({
      ok: true,
      data: { refused: [{ reason: 'too large: 101.0 MB (the limit is 100 MB)' }] },
    });
    await invoke('files.index', {});
    await until(
      () => events.join(''),
      (text) => text.includes('"phase":"indexed"'),
      { label: 'the indexed event' },
    );
    controller.abort();
    await stream.catch(() => undefined);
    expect(events.join('')).toContain('event: index.progress');
    expect(events.join('')).toContain('"phase":"indexed"');
    const chat = (await (await invoke('chat.send', { message: 'how long is parental leave?' })).json()) as {
      data: { answer: { modelOff: boolean; passages: { text: string; highlights: unknown[] }[] } };
    };
    expect(chat.data.answer.modelOff).toBe(true);
    expect(chat.data.answer.passages[0]?.text).toContain('Parental leave is 20 weeks.');
    expect(chat.data.answer.passages[0]?.highlights.length).toBeGreaterThan(0);
  });
});
