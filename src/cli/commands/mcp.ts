/**
 * `brain mcp`: the MCP server for agents, on stdio (what Claude Code, Cursor and Claude Desktop
 * start), or with --http on 127.0.0.1 (prints the URL and `token: …`). Acts as --as USER (default
 * the local user) with that user's scopes; --agent names the agent in origin (default: the MCP
 * client's name), --run sets the run id (default: one per process, or per HTTP session).
 */
import type { Command } from 'commander';
import { ONE_LINE_MESSAGE, ONE_LINE_RE } from '#shared/api/schemas.ts';
import { AppError } from '#shared/errors.ts';
import { fixedAgentName } from '../../hosts/mcp/context.ts';
import { serveMcpHttp } from '../../hosts/mcp/http.ts';
import { runStdio } from '../../hosts/mcp/stdio.ts';
import type { GlobalOptions } from '../context.ts';
import { fail, print } from '../output.ts';

type McpOptions = { agent?: string; run?: string; http?: boolean; port?: string };

function parsePort(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new AppError('validation-failed', `--port takes a port number from 0 to 65535 (got ${value}).`);
  }
  return port;
}

async function runHttp(global: GlobalOptions, opts: McpOptions): Promise<void> {
  const served = await serveMcpHttp({
    home: global.home,
    user: global.as,
    agent: opts.agent,
    run: opts.run,
    port: parsePort(opts.port),
  });
  print(`url: ${served.url}`);
  print(`token: ${served.token}`);
  process.stderr.write(
    `brain mcp --http: listening on 127.0.0.1:${served.port}` +
      `${served.isOwner ? ', serving embeddings for other brain processes' : ''}; Ctrl-C to stop\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await served.close();
}

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('MCP server for agents: stdio by default, or Streamable HTTP on 127.0.0.1 with --http')
    .option('--agent <name>', "the agent's name recorded in origin (default: the MCP client's name)")
    .option('--run <id>', 'the run id recorded in origin (default: a new one per process)')
    .option('--http', 'serve Streamable HTTP on 127.0.0.1 instead of stdio (prints url and token)')
    .option('--port <n>', 'port for --http (default: any free port)')
    .action(async (opts: McpOptions) => {
      const global = program.opts<GlobalOptions>();
      try {
        // The run is printed a line (`brain runs`) and stored as its id: a line break would forge the next one.
        if (opts.run !== undefined && !ONE_LINE_RE.test(opts.run))
          throw new AppError('validation-failed', `--run: ${ONE_LINE_MESSAGE}.`);
        // Refused before anything opens: `app` and `cli` are reserved (docs/AGENTS.md [G2]).
        fixedAgentName(opts.agent);
        if (opts.http) await runHttp(global, opts);
        else await runStdio({ home: global.home, user: global.as, agent: opts.agent, run: opts.run });
      } catch (err) {
        fail(err);
      }
      process.exit(0);
    });
}
