import type { Command } from 'commander';
import {
  addToTeam,
  createInvitation,
  createTeam,
  listMembers,
  removeFromTeam,
  revokeUser,
} from '../../engine/sync/index.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

/** Workspace administration through the server, from a connected replica. */
export function registerTeams(program: Command): void {
  program
    .command('invite')
    .description('Create an invitation on the server (admins only)')
    .option('--admin', 'the invited user is an admin')
    .option('--team <team...>', 'teams the invited user joins', [])
    .option('--user <name>', 'the user the invitation is for (default: a new user named at redeem)')
    .option('--json', 'print JSON')
    .action((opts: { admin?: boolean; team: string[]; user?: string; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const r = await createInvitation(engine, {
          admin: opts.admin ?? false,
          teams: opts.team,
          user: opts.user,
        });
        if (opts.json) return printJson(r);
        print(r.code);
        process.stderr.write(`${r.user ? `for ${r.user}, ` : ''}expires ${r.expiresAt}\n`);
      }),
    );

  const teams = program.command('teams').description('Teams on the workspace server');
  teams
    .command('list')
    .description('Members and teams of the workspace')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const r = await listMembers(engine);
        if (opts.json) return printJson(r);
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
    .argument('<team>', 'team id')
    .option('--json', 'print JSON')
    .action((team: string, opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const r = await createTeam(engine, team);
        if (opts.json) return printJson(r);
        print(`team ${r.team} created`);
      }),
    );
  teams
    .command('add')
    .argument('<team>', 'team id')
    .argument('<user>', 'member')
    .option('--json', 'print JSON')
    .action((team: string, user: string, opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const r = await addToTeam(engine, team, user);
        if (opts.json) return printJson(r);
        print(`${r.user} added to ${r.team}`);
      }),
    );
  teams
    .command('remove')
    .argument('<team>', 'team id')
    .argument('<user>', 'member')
    .option('--json', 'print JSON')
    .action((team: string, user: string, opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const r = await removeFromTeam(engine, team, user);
        if (opts.json) return printJson(r);
        print(`${r.user} removed from ${r.team}`);
      }),
    );

  program
    .command('revoke')
    .description('Revoke every device token of a user and remove them from the workspace (admins only)')
    .argument('<user>', 'member')
    .option('--json', 'print JSON')
    .action((user: string, opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const r = await revokeUser(engine, user);
        if (opts.json) return printJson(r);
        print(`${r.revoked} revoked`);
      }),
    );
}
