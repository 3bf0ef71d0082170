import type { Command } from 'commander';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

export function registerMembers(program: Command): void {
  const members = program
    .command('members')
    .description('Local members and teams (scopes before sync exists)');
  members
    .command('add')
    .description('Add a member, optionally to teams (created as needed)')
    .argument('<user>', 'user id')
    .option('--team <team...>', 'team ids', [])
    .option('--json', 'print JSON')
    .action((user: string, opts: { team: string[]; json?: boolean }) =>
      withEngine(program, (engine) => {
        const result = engine.addMember(user, opts.team);
        if (opts.json) return printJson(result);
        print(`${result.user}${result.teams.length ? ` is in ${result.teams.join(', ')}` : ' added'}`);
      }),
    );
}
