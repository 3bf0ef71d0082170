/** `brain members add`: the contract's members.add (src/shared/api/ops/team.ts), for this workspace. */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { MembersAdd } from '#shared/api/ops/team.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

export function registerMembers(program: Command): void {
  const members = program
    .command('members')
    .description('Local members and teams (scopes before sync exists)');
  members
    .command('add')
    .description(MembersAdd.summary)
    .argument('<user>', 'user id')
    .option('--team <team...>', 'team ids', [])
    .option('--json', 'print JSON')
    .action((user: string, opts: { team: string[]; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const result = await run(memberContext(engine, 'cli'), MembersAdd, { user, teams: opts.team });
        if (opts.json) return printJson(result);
        print(`${result.user}${result.teams.length ? ` is in ${result.teams.join(', ')}` : ' added'}`);
      }),
    );
}
