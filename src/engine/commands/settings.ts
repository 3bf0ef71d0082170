/** settings.get and settings.set (src/shared/api/ops/settings.ts), as every surface runs them. */
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type { SettingsGet, SettingsSet } from '#shared/api/ops/settings.ts';
import { readSettings, writeSettings } from '../host/settings.ts';
import type { CommandContext } from './types.ts';

function current(ctx: CommandContext): OutputOf<typeof SettingsGet> {
  const { engine } = ctx;
  return readSettings(engine.db, { dataFolder: engine.home, user: engine.user });
}

async function settingsGet(ctx: CommandContext, _: ParsedInputOf<typeof SettingsGet>) {
  return current(ctx);
}

async function settingsSet(ctx: CommandContext, input: ParsedInputOf<typeof SettingsSet>) {
  writeSettings(ctx.engine.db, input);
  return current(ctx);
}

export const settingsHandlers = { 'settings.get': settingsGet, 'settings.set': settingsSet };
