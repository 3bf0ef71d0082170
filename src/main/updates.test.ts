import { describe, expect, it, vi } from 'vitest';
import {
  CHECK_EVERY_MS,
  checkOnce,
  isIndexing,
  RETRY_WHILE_BUSY_MS,
  type Updater,
  updateFeed,
} from './updates.ts';

describe('updateFeed ([N14] in docs/PACKAGING.md)', () => {
  it('is off until a feed is configured', () => {
    expect(updateFeed(undefined, {})).toBeNull();
    expect(updateFeed('', {})).toBeNull();
    expect(updateFeed(42, {})).toBeNull();
  });

  it('takes https feeds, and http on this machine only', () => {
    expect(updateFeed('https://updates.example.com/org-brain/', {})).toBe(
      'https://updates.example.com/org-brain/',
    );
    expect(updateFeed(undefined, { BRAIN_UPDATE_URL: 'http://127.0.0.1:8080/feed' })).toBe(
      'http://127.0.0.1:8080/feed',
    );
    expect(updateFeed('https://a.example/', { BRAIN_UPDATE_URL: 'https://b.example/' })).toBe(
      'https://b.example/',
    );
    for (const bad of [
      'http://updates.example.com/',
      'file:///tmp/feed',
      'ftp://updates.example.com/',
      'https://user:pw@updates.example.com/',
      'not a url',
      'javascript:alert(1)',
    ]) {
      expect(updateFeed(bad, {}), bad).toBeNull();
    }
  });
});

describe('checkOnce', () => {
  const updater = (available: boolean): Updater & { download: ReturnType<typeof vi.fn> } => ({
    check: async () => ({ available, version: '0.2.0' }),
    download: vi.fn(async () => {}),
  });

  it('downloads an update when nothing is being indexed, to install on the next restart', async () => {
    const u = updater(true);
    const notify = vi.fn();
    expect(await checkOnce(u, async () => false, notify)).toBe(CHECK_EVERY_MS);
    expect(u.download).toHaveBeenCalledTimes(1);
    expect(notify).toHaveBeenCalledWith({ kind: 'downloaded', version: '0.2.0' });
  });

  it('never downloads while indexing: it tries again later', async () => {
    const u = updater(true);
    const notify = vi.fn();
    expect(await checkOnce(u, async () => true, notify)).toBe(RETRY_WHILE_BUSY_MS);
    expect(u.download).not.toHaveBeenCalled();
    expect(notify).not.toHaveBeenCalled();
  });

  it('checks again in a day when there is nothing new, or when the check fails', async () => {
    const u = updater(false);
    expect(await checkOnce(u, async () => false, vi.fn())).toBe(CHECK_EVERY_MS);
    expect(u.download).not.toHaveBeenCalled();
    const notify = vi.fn();
    const failing: Updater = {
      check: async () => {
        throw new Error('feed unreachable');
      },
      download: async () => {},
    };
    expect(await checkOnce(failing, async () => false, notify)).toBe(CHECK_EVERY_MS);
    expect(notify).toHaveBeenCalledWith({ kind: 'failed', message: 'feed unreachable' });
  });

  it('reads indexing from the engine status', () => {
    expect(isIndexing(null)).toBe(false);
    expect(isIndexing({ queue: { queued: 0, running: 0 } })).toBe(false);
    expect(isIndexing({ queue: { queued: 3, running: 0 } })).toBe(true);
    expect(isIndexing({ queue: { queued: 0, running: 1 } })).toBe(true);
  });
});
