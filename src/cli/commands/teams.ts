/**
 * Workspace administration through the server, from a connected replica: `brain invite`,
 * `brain teams list|create|add|remove`, `brain revoke`, the contract's members.invite,
 * sync.members, teams.* and members.revoke (src/shared/api/ops/team.ts).
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { Operation, OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import {
  MembersInvite,
  MembersRevoke,
  SyncMembers,
  TeamsAdd,
  TeamsCreate,
  TeamsRemove,
} from '#shared/api/ops/team.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

/** Runs one operation as the CLI's member, then prints its answer as JSON or for people. */
function runAndPrint<O extends Operation>(
  program: Command,
  op: O,
  input: ParsedInputOf<O> | Record<string, unknown>,
  json: boolean | undefined,
  show: (out: OutputOf<O>) => void,
): Promise<void> {
  return withEngine(program, async (engine) => {
    const out = await run(memberContext(engine, 'cli'), op, input);
    if (json) printJson(out);
    else show(out);
  });
}

export function registerTeams(program: Command): void {
  program
    .command('invite')
    .description(MembersInvite.summary)
    .option('--admin', 'the invited user is an admin')
    .option('--team <team...>', 'teams the invited user joins', [])
    .option('--user <name>', 'the user the invitation is for (default: a new user named at redeem)')
    .option('--json', 'print JSON')
    .action((opts: { admin?: boolean; team: string[]; user?: string; json?: boolean }) =>
      runAndPrint(
        program,
        MembersInvite,
        { admin: opts.admin ?? false, teams: opts.team, user: opts.user },
        opts.json,
        (r) => {
          print(r.code);
          process.stderr.write(`${r.user ? `for ${r.user}, ` : ''}expires ${r.expiresAt}\n`);
        },
      ),
    );

  const teams = program.command('teams').description('Teams on the workspace server');
  teams
    .command('list')
    .description('Members and teams of the workspace')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      runAndPrint(program, SyncMembers, {}, opts.json, (r) => {
        for (const m of r.members) {
          print(
            `${m.user}${m.isAdmin ? ' (admin)' : ''}  teams: ${m.teams.join(', ') || '-'}  devices: ${m.devices}`,
          );
        }
        for (const t of r.teams) print(`team ${t.id}: ${t.members.join(', ') || '-'}`);
      }),
    );
  teams
    .command('create')
    .description(TeamsCreate.summary)
    .argument('<team>', 'team id')
    .option('--json', 'print JSON')
    .action((team: string, opts: { json?: boolean }) =>
      runAndPrint(program, TeamsCreate, { team }, opts.json, (r) => print(`team ${r.team} created`)),
    );
  teams
    .command('add')
    .description(TeamsAdd.summary)
    .argument('<team>', 'team id')
    .argument('<user>', 'member')
    .option('--json', 'print JSON')
    .action((team: string, user: string, opts: { json?: boolean }) =>
      runAndPrint(program, TeamsAdd, { team, user }, opts.json, (r) => print(`${r.user} added to ${r.team}`)),
    );
  teams
    .command('remove')
    .description(TeamsRemove.summary)
    .argument('<team>', 'team id')
    .argument('<user>', 'member')
    .option('--json', 'print JSON')
    .action((team: string, user: string, opts: { json?: boolean }) =>
      runAndPrint(program, TeamsRemove, { team, user }, opts.json, (r) =>
        print(`${r.user} removed from ${r.team}`),
      ),
    );

  program
    .command('revoke')
    .description(MembersRevoke.summary)
    .argument('<user>', 'member')
    .option('--json', 'print JSON')
    .action((user: string, opts: { json?: boolean }) =>
      runAndPrint(program, MembersRevoke, { user }, opts.json, (r) => print(`${r.revoked} revoked`)),
    );
}
