/** `brain config set model.baseUrl|model.name|model.key VALUE`, `brain config get`, `brain config test`. */
import type { Command } from 'commander';
import { testConnection } from '../../engine/llm/client.ts';
import {
  MODEL_SETTING_KEYS,
  modelConfigView,
  offReason,
  readModelConfig,
  resolveModel,
  setModelSetting,
} from '../../engine/llm/config.ts';
import { AppError } from '../../shared/errors.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

export function registerConfig(program: Command): void {
  const config = program.command('config').description('Workspace settings: the chat model');
  config
    .command('set')
    .description(
      `Set ${MODEL_SETTING_KEYS.join(', ')} (an empty value clears it; the key goes to a 0600 file)`,
    )
    .argument('<key>', MODEL_SETTING_KEYS.join(' | '))
    .argument('[value]', 'the value (empty: clear)', '')
    .action((key: string, value: string) =>
      withEngine(program, async (engine) => {
        await setModelSetting(engine.db, engine.home, key, value);
        const view = await modelConfigView(engine.db, engine.home);
        print(
          key === 'model.key' ? `model.key ${value ? 'set' : 'cleared'}` : `${key} = ${value || '(cleared)'}`,
        );
        print(
          view.enabled ? `chat model on: ${view.model} at ${view.baseUrl}` : `chat model off: ${view.reason}`,
        );
      }),
    );
  config
    .command('get')
    .description('Show the chat model settings (never the key itself)')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const view = await modelConfigView(engine.db, engine.home);
        if (opts.json) return printJson(view);
        print(`model.baseUrl  ${view.baseUrl ?? `(not set; suggested ${view.suggestedBaseUrl})`}`);
        print(`model.name     ${view.model ?? '(not set)'}`);
        print(`model.key      ${view.hasKey ? `set (${view.keyStorage})` : '(none)'}`);
        print(view.enabled ? 'chat model on' : `chat model off: ${view.reason}`);
      }),
    );
  config
    .command('test')
    .description('Test the connection to the chat model')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const access = await resolveModel(engine.db, engine.home);
        if (!access)
          throw new AppError('refused', `Nothing to test: ${offReason(readModelConfig(engine.db))}.`);
        const result = await testConnection(access);
        if (opts.json) printJson(result);
        else print(result.message);
        if (!result.ok) process.exitCode = 1;
      }),
    );
}
