/**
 * `brain server --data DIR [--port N] [--host H]`: the workspace server on embedded PGlite in DIR,
 * or on PostgreSQL when DATABASE_URL is set. Prints its URL and, on first start only, one admin
 * invitation as `invite: CODE`. Logs (JSON) go to stderr. Runs until SIGINT/SIGTERM.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { startServer } from '../../server/main.ts';
import { fail, print } from '../output.ts';

type ServerOptions = { data: string; port: string; host: string };

export function registerServer(program: Command): void {
  program
    .command('server')
    .description('Run the workspace server (embedded PGlite in --data, or PostgreSQL at $DATABASE_URL)')
    .requiredOption('--data <dir>', 'data folder (database and blobs)')
    .option('--port <n>', 'port (0 picks a free one)', '8787')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .action(async (opts: ServerOptions) => {
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) fail(new Error(`Bad --port ${opts.port}`));
      try {
        const server = await startServer({
          dataDir: resolve(opts.data),
          port,
          host: opts.host,
          databaseUrl: process.env.DATABASE_URL || undefined,
          logger: { level: process.env.BRAIN_LOG_LEVEL ?? 'info', stream: process.stderr },
        });
        print(`Org Brain server listening at ${server.url}`);
        if (server.firstInvite) print(`invite: ${server.firstInvite}`);
        await new Promise<void>((done) => {
          const stop = () => {
            process.off('SIGINT', stop);
            process.off('SIGTERM', stop);
            done();
          };
          process.on('SIGINT', stop);
          process.on('SIGTERM', stop);
        });
        await server.close();
        process.exit(0);
      } catch (err) {
        fail(err);
      }
    });
}
