/**
 * `brain unlock <id> --password-file PATH`: the contract's files.unlock (src/shared/api/ops/files.ts).
 * The file is indexed here and now with the password, which is used for that extraction only and
 * never stored (docs/SECURITY.md [U1]); a wrong one fails with "wrong password for <file>".
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { FilesUnlock } from '#shared/api/ops/files.ts';
import { plural } from '#shared/plural.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';
import { readPasswordFile } from '../password-file.ts';

export function registerUnlock(program: Command): void {
  program
    .command('unlock')
    .description(FilesUnlock.summary)
    .argument('<id>', 'the id of a file that needs a password')
    .requiredOption('--password-file <path>', 'read the password from this file (- for standard input)')
    .option('--json', 'print JSON: {id, label, sections, mentions}')
    .action((id: string, opts: { passwordFile: string; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const password = readPasswordFile(opts.passwordFile);
        const out = await run(memberContext(engine, 'cli'), FilesUnlock, { id, password });
        if (opts.json) return printJson(out);
        print(`indexed  ${out.id}  ${out.label} (${plural(out.sections, 'section')})`);
        print(`audit: ${out.mentions} mentions of known entities linked.`);
      }),
    );
}
