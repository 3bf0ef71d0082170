/**
 * `brain serve` keeps answering while a big drop is added: adding awaits its reads, hashes and
 * blob writes file by file (src/engine/add/add.ts), so other requests are served in between.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from '#engine/testing/until.ts';
import { readEvents, servedWorkspace } from './serve-process.ts';

const FILES = 10_000;

const serve = servedWorkspace('brain-serve-add-');

type Answer<T> = { ok: boolean; data: T };

function post(name: string, input?: unknown): Promise<Response> {
  return fetch(`${serve().base}/api/invoke/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${serve().token}` },
    body: input === undefined ? undefined : JSON.stringify(input),
  });
}

async function invoke<T>(name: string, input?: unknown): Promise<Answer<T>> {
  return (await (await post(name, input)).json()) as Answer<T>;
}

function writeFolder(count: number): string {
  const folder = join(serve().root, 'drop');
  mkdirSync(folder);
  for (let i = 0; i < count; i++) {
    writeFileSync(
      join(folder, `note-${String(i).padStart(5, '0')}.md`),
      `# Note ${i}\n\nNote number ${i}.\n`,
    );
  }
  return folder;
}

type Counts = { counts: { files: number } };

describe('brain serve during a drop of 10,000 files', () => {
  it('answers status.get and app.info mid-drop, and adds every file', { timeout: 180_000 }, async () => {
    const folder = writeFolder(FILES);
    const events: string[] = [];
    const controller = new AbortController();
    const stream = readEvents(serve(), events, controller.signal);
    // The server writes the add's answer once the add is done: until it arrives, the add is running.
    let addDone = false;
    const add = post('files.add', { paths: [folder] }).finally(() => {
      addDone = true;
    });
    const info: string[] = [];
    const filesSeen: number[] = [];
    const progressEvents = () => events.join('').split('event: add.progress').length - 1;
    // One round of questions per add.progress event (a few a second), until the add answers.
    for (let asked = 0; !addDone; asked = progressEvents()) {
      await until(() => addDone || progressEvents() > asked, Boolean, { label: 'an add.progress event' });
      const [status, app] = await Promise.all([
        invoke<Counts>('status.get'),
        invoke<{ name: string }>('app.info'),
      ]);
      if (!addDone) {
        filesSeen.push(status.data.counts.files);
        info.push(app.data.name);
      }
    }
    const result = (await (await add).json()) as Answer<{ added: unknown[]; refused: unknown[] }>;

    expect(info).toContain('Org Brain');
    // Answered in the middle of the drop, not before it began or after it ended.
    expect(filesSeen.some((n) => n > 0 && n < FILES)).toBe(true);
    expect(result.ok).toBe(true);
    expect(result.data.added).toHaveLength(FILES);
    expect(result.data.refused).toEqual([]);
    expect((await invoke<Counts>('status.get')).data.counts.files).toBe(FILES);
    // The drop said how far it got, and that it was done.
    await until(
      () => events.join(''),
      (text) => text.includes(`"done":${FILES},"total":${FILES}`),
      { label: 'the last add.progress event' },
    );
    expect(events.join('')).toContain('event: add.progress');
    controller.abort();
    await stream.catch(() => undefined);
  });
});
