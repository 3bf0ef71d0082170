/**
 * Updates ([N14] in docs/PACKAGING.md): off until a feed is configured (`"updateFeed"` in
 * <userData>/preferences.json, or BRAIN_UPDATE_URL), then checked at start and once a day with
 * electron-updater's generic provider, downloaded only while nothing is being indexed, and
 * installed when the app next quits (never under a running app). The policy is here, pure;
 * main wires it to electron-updater, which it loads only when a feed is set.
 */

export const CHECK_EVERY_MS = 24 * 60 * 60 * 1000;
/** While indexing runs, a found update waits this long before the download is tried again. */
export const RETRY_WHILE_BUSY_MS = 10 * 60 * 1000;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The feed URL to check, or null (updates off): https, or http on this machine only (a test
 * server), without credentials. BRAIN_UPDATE_URL wins over the preference.
 */
export function updateFeed(preference: unknown, env: Record<string, string | undefined>): string | null {
  const raw = env.BRAIN_UPDATE_URL || (typeof preference === 'string' ? preference : '');
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return url.href;
  return null;
}

/** Whether the engine is indexing, from its status (status.get's queue). */
export function isIndexing(status: { queue?: { queued: number; running: number } } | null): boolean {
  return !!status?.queue && status.queue.queued + status.queue.running > 0;
}

export type Updater = {
  check(): Promise<{ available: boolean; version?: string }>;
  download(): Promise<void>;
};

export type UpdateNotice = { kind: 'downloaded'; version: string } | { kind: 'failed'; message: string };

/**
 * One check: when an update is available, it is downloaded unless the engine is indexing (then
 * it is tried again later). Returns when to run again.
 */
export async function checkOnce(
  updater: Updater,
  indexing: () => Promise<boolean>,
  notify: (notice: UpdateNotice) => void,
): Promise<number> {
  try {
    const found = await updater.check();
    if (!found.available) return CHECK_EVERY_MS;
    if (await indexing()) return RETRY_WHILE_BUSY_MS;
    await updater.download();
    notify({ kind: 'downloaded', version: found.version ?? '' });
    return CHECK_EVERY_MS;
  } catch (err) {
    notify({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
    return CHECK_EVERY_MS;
  }
}
