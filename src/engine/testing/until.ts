/**
 * Waiting in tests for something another process, worker or timer brings about. The deadline is
 * generous on purpose: CI machines have two cores and run heavy suites side by side, and a test
 * that waits must fail on "never happened", not on "happened slowly".
 */
const UNTIL_MS = 60_000;

/** Polls `what` until `ok` accepts its value; returns that value. */
export async function until<T>(
  what: () => T | Promise<T>,
  ok: (v: T) => boolean = Boolean,
  options: { ms?: number; every?: number; label?: string } = {},
): Promise<T> {
  const end = Date.now() + (options.ms ?? UNTIL_MS);
  for (;;) {
    const v = await what();
    if (ok(v)) return v;
    if (Date.now() > end) {
      const last = JSON.stringify(v) ?? String(v);
      throw new Error(
        `timed out waiting${options.label ? ` for ${options.label}` : ''}; last value ${last.slice(0, 400)}`,
      );
    }
    await new Promise((r) => setTimeout(r, options.every ?? 25));
  }
}

/** The first message in `list` (which keeps growing) that matches, once one arrives. */
export async function firstMatch<M>(list: readonly M[], pred: (m: M) => boolean, label?: string): Promise<M> {
  const hit = await until(
    () => list.find(pred),
    (m) => m !== undefined,
    { label: label ?? `a matching message (got ${list.length})` },
  );
  return hit as M;
}
