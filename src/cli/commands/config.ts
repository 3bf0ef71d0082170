/**
 * `brain config set model.baseUrl|model.name|model.key VALUE`, `brain config get`, `brain config
 * test`: the contract's chatModel.set, chatModel.get and chatModel.test (src/shared/api/ops/team.ts).
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { MODEL_SETTING_KEYS, type ModelSettingKey } from '#engine/llm/config.ts';
import type { InputOf } from '#shared/api/operation.ts';
import { ChatModelGet, ChatModelSet, ChatModelTest } from '#shared/api/ops/team.ts';
import { AppError } from '#shared/errors.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

/** The setting names of the command line, as the fields of chatModel.set. */
const FIELD: Record<ModelSettingKey, keyof InputOf<typeof ChatModelSet>> = {
  'model.baseUrl': 'baseUrl',
  'model.name': 'model',
  'model.key': 'key',
};

function fieldOf(key: string): keyof InputOf<typeof ChatModelSet> {
  if (!Object.hasOwn(FIELD, key))
    throw new AppError('validation-failed', `Unknown setting ${key}: use ${MODEL_SETTING_KEYS.join(', ')}.`);
  return FIELD[key as ModelSettingKey];
}

export function registerConfig(program: Command): void {
  const config = program.command('config').description('Workspace settings: the chat model');
  config
    .command('set')
    .description(
      `Set ${MODEL_SETTING_KEYS.join(', ')} (an empty value clears it; the key goes to a 0600 file)`,
    )
    .argument('<key>', MODEL_SETTING_KEYS.join(' | '))
    .argument('[value]', 'the value (empty: clear)', '')
    .option('--json', 'print JSON (the settings after it, never the key)')
    .action((key: string, value: string, opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const view = await run(memberContext(engine, 'cli'), ChatModelSet, { [fieldOf(key)]: value });
        if (opts.json) return printJson(view);
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
    .description(ChatModelGet.summary)
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const view = await run(memberContext(engine, 'cli'), ChatModelGet, {});
        if (opts.json) return printJson(view);
        print(`model.baseUrl  ${view.baseUrl ?? `(not set; suggested ${view.suggestedBaseUrl})`}`);
        print(`model.name     ${view.model ?? '(not set)'}`);
        print(`model.key      ${view.hasKey ? `set (${view.keyStorage})` : '(none)'}`);
        print(view.enabled ? 'chat model on' : `chat model off: ${view.reason}`);
      }),
    );
  config
    .command('test')
    .description(ChatModelTest.summary)
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const result = await run(memberContext(engine, 'cli'), ChatModelTest, {});
        if (opts.json) printJson(result);
        else print(result.message);
        if (!result.ok) process.exitCode = 1;
      }),
    );
}
