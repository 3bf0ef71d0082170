/** Opens the engine for one command with the global options, and always closes it. */
import type { Command } from 'commander';
import { Engine } from '#engine/engine.ts';
import type { Surface } from '#engine/telemetry.ts';
import { fail } from './output.ts';

export type GlobalOptions = { home?: string; as?: string };

/**
 * The command being run (`search`, `members add`), without its arguments: what an `--as` record
 * in Activity names ([R3] in docs/RETRIEVAL.md). Queries and paths stay out of it.
 */
function commandName(program: Command): string {
  const [first, second] = program.args;
  const command = program.commands.find((c) => c.name() === first);
  return command && command.commands.length > 0 && second ? `${first} ${second}` : (first ?? '');
}

export async function withEngine(
  program: Command,
  fn: (engine: Engine) => unknown,
  options: { surface?: Surface } = {},
): Promise<void> {
  const opts = program.opts<GlobalOptions>();
  let engine: Engine | undefined;
  try {
    engine = Engine.open({
      home: opts.home,
      user: opts.as,
      command: commandName(program),
      surface: options.surface ?? 'cli',
    });
    await fn(engine);
  } catch (err) {
    await engine?.close().catch(() => undefined);
    fail(err);
  }
  await engine.close();
}

// A decimal number as people write one: Number() alone reads '' and '  ' as 0 and 0x1 as 1.
const DECIMAL_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A numeric option as given, for the operation's schema to check (so `--limit abc` gets its error):
 * anything but a decimal number is NaN, which the schema refuses naming the option's field.
 */
export function optionalNumber(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return DECIMAL_RE.test(value.trim()) ? Number(value) : Number.NaN;
}
