/**
 * `brain settings [--json]` and `brain settings set --index-on-add on|off`: the contract's
 * settings.get and settings.set (src/shared/api/ops/settings.ts), as the app's Settings screen.
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { SettingsGet, SettingsSet } from '#shared/api/ops/settings.ts';
import type { Settings } from '#shared/api/types.ts';
import { AppError } from '#shared/errors.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

function onOff(value: string): boolean {
  if (value === 'on' || value === 'true') return true;
  if (value === 'off' || value === 'false') return false;
  throw new AppError('validation-failed', `--index-on-add takes on or off, not "${value}".`);
}

function show(view: Settings): void {
  print(`index-on-add  ${view.indexOnAdd ? 'on' : 'off'}`);
  print(`ocr language  ${view.ocrLanguages.join('+')} (installed: ${view.ocrLanguagesAvailable.join(', ')})`);
  print(`data folder   ${view.dataFolder}`);
  print(`acting as     ${view.user}`);
}

/** `rus+eng`, `rus,eng` or `rus eng`: the codes in order, as typed (the contract checks them). */
function ocrCodes(value: string): string[] {
  return value.split(/[+,\s]+/).filter(Boolean);
}

export function registerSettings(program: Command): void {
  const settings = program
    .command('settings')
    .description(SettingsGet.summary)
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const view = await run(memberContext(engine, 'cli'), SettingsGet, {});
        if (opts.json) printJson(view);
        else show(view);
      }),
    );
  settings
    .command('set')
    .description(SettingsSet.summary)
    .option('--index-on-add <on|off>', 'index new files as soon as they are added')
    .option(
      '--ocr-language <codes>',
      'the language(s) scans and pictures are read in: installed codes, the main one first ("eng", "rus+eng")',
    )
    .option('--json', 'print JSON (the settings after it)')
    .action((opts: { indexOnAdd?: string; ocrLanguage?: string; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const input = {
          ...(opts.indexOnAdd === undefined ? {} : { indexOnAdd: onOff(opts.indexOnAdd) }),
          ...(opts.ocrLanguage === undefined ? {} : { ocrLanguages: ocrCodes(opts.ocrLanguage) }),
        };
        const view = await run(memberContext(engine, 'cli'), SettingsSet, input);
        // `--json` after `set` may be read as the parent's own option.
        if (opts.json || settings.opts().json) printJson(view);
        else show(view);
      }),
    );
}
