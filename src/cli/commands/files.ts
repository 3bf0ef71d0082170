/**
 * `brain files [text]`: the files you can see, as the app's Files grid lists them (the contract's
 * files.list, src/shared/api/ops/files.ts), filtered by kind, state and scope and sorted.
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { FilesList } from '#shared/api/ops/files.ts';
import type { FileRow } from '#shared/api/types.ts';
import { needsPassword } from '#shared/password.ts';
import { optionalNumber, withEngine } from '../context.ts';
import { oneLine, print, printJson } from '../output.ts';

type FilesOptions = {
  kind?: string[];
  state?: string[];
  scope?: string[];
  sort?: string;
  asc?: boolean;
  limit?: string;
  offset?: string;
  json?: boolean;
};

const many = (value: string, previous: string[] = []) => [...previous, value];

function stateOf(row: FileRow): string {
  // docs/FORMATS.md [F11]: the way on for a file that needs its password.
  if (row.state === 'failed' && needsPassword(row.reason))
    return `needs a password: brain unlock ${row.id} --password-file PATH`;
  return row.state === 'failed' && row.reason ? `failed: ${row.reason}` : row.state;
}

export function registerFiles(program: Command): void {
  program
    .command('files')
    .description(FilesList.summary)
    .argument('[text]', 'only files whose name or path holds this text')
    .option(
      '--kind <kind>',
      'only this kind (markdown, text, pdf, word, spreadsheet, html, presentation); repeatable',
      many,
    )
    .option('--state <state>', 'only this state (added, indexing, indexed, failed); repeatable', many)
    .option('--scope <scope>', 'only this scope (org, team:<id>, user:<id>); repeatable', many)
    .option('--sort <key>', 'name, kind, size, addedBy, addedAt, scope or state (default: addedAt)')
    .option('--asc', 'ascending (default: descending)')
    .option('--limit <n>', 'at most this many rows (default 200, at most 1000)')
    .option('--offset <n>', 'skip this many rows first')
    .option('--json', 'print JSON: {total, rows, facets}')
    .action((text: string | undefined, opts: FilesOptions) =>
      withEngine(program, async (engine) => {
        const input: Record<string, unknown> = {
          q: text,
          kinds: opts.kind,
          states: opts.state,
          scopes: opts.scope,
          sort: opts.sort,
          dir: opts.asc ? 'asc' : 'desc',
          limit: optionalNumber(opts.limit),
          offset: optionalNumber(opts.offset),
        };
        const list = await run(memberContext(engine, 'cli'), FilesList, input);
        if (opts.json) return printJson(list);
        if (list.total === 0) return print('No files. Add some with `brain add <path>`.');
        for (const r of list.rows) print(`${r.id}  ${r.scope}  ${stateOf(r)}  ${oneLine(r.path ?? r.label)}`);
        const shown = list.rows.length;
        if (shown < list.total) print(`${shown} of ${list.total} files (use --offset and --limit for more).`);
        else print(`${list.total} file${list.total === 1 ? '' : 's'}.`);
      }),
    );
}
