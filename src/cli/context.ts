/** Opens the engine for one command with the global options, and always closes it. */
import type { Command } from 'commander';
import { Engine } from '../engine/engine.ts';
import type { Surface } from '../engine/telemetry.ts';
import { fail } from './output.ts';

export type GlobalOptions = { home?: string; as?: string };

export async function withEngine(
  program: Command,
  fn: (engine: Engine) => unknown,
  options: { surface?: Surface } = {},
): Promise<void> {
  const opts = program.opts<GlobalOptions>();
  let engine: Engine | undefined;
  try {
    engine = Engine.open({ home: opts.home, user: opts.as, surface: options.surface ?? 'cli' });
    await fn(engine);
  } catch (err) {
    await engine?.close().catch(() => undefined);
    fail(err);
  }
  await engine.close();
}
