/**
 * One e2e test's app: `brain serve` on a data folder and Chromium on it, both stopped after the
 * test (with whatever else the test registers in `cleanup`), and on failure a screenshot and the
 * host's output. Every e2e file uses it.
 */
import { afterEach, onTestFailed } from 'vitest';
import { openApp, type Session, screenshot } from './browser.ts';
import { type Served, serve } from './serve.ts';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** Runs `fn` after the current test, last registered first. */
export function cleanup(fn: () => Promise<void> | void): void {
  cleanups.push(fn);
}

export async function start(
  home?: string,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<{ served: Served; s: Session }> {
  const served = await serve(home);
  cleanup(served.stop);
  const s = await openApp(served.url, { colorScheme });
  cleanup(s.close);
  onTestFailed(async ({ task }) => {
    await screenshot(s.page, `failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => {});
    console.error(served.output().slice(-4000), s.problems);
  });
  return { served, s };
}
