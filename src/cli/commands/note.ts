/** `brain note add`: a note written straight in, the contract's notes.add (src/shared/api/ops/notes.ts). */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { NotesAdd } from '#shared/api/ops/notes.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

type NoteOptions = { kind: string; label: string; scope?: string; sourceKey?: string; json?: boolean };

export function registerNote(program: Command): void {
  const note = program.command('note').description('Notes written straight into the brain');
  note
    .command('add')
    .description('Write a durable fact (a decision, owner, definition, rule, gotcha): no review')
    .argument('<body...>', 'the fact itself')
    .requiredOption('--label <title>', 'a short title')
    .option('--kind <kind>', 'free text: decision, gotcha, owner…', 'fact')
    .option('--scope <scope>', 'org (default), team:<id> or user:<id>')
    .option('--source-key <key>', 'a stable key: writing it again updates the note in place')
    .option('--json', 'print JSON')
    .action((words: string[], opts: NoteOptions) =>
      withEngine(program, async (engine) => {
        const out = await run(memberContext(engine, 'cli'), NotesAdd, {
          kind: opts.kind,
          label: opts.label,
          body: words.join(' '),
          scope: opts.scope,
          source_key: opts.sourceKey,
        });
        if (opts.json) return printJson(out);
        const what = out.created ? 'wrote' : out.changed ? 'updated' : 'unchanged';
        print(`${what} ${out.id} in ${out.scope} (version ${out.version})`);
      }),
    );
}
