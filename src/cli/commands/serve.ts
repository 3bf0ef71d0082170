import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import {
  EMBED_PATH,
  readLiveOwner,
  removeOwnerFile,
  serveEmbeddings,
  writeOwnerFile,
} from '#engine/embed/remote.ts';
import { Engine } from '#engine/engine.ts';
import { HostSlot } from '#engine/host/slot.ts';
import { findRepoRoot } from '#engine/util/repo-root.ts';
import { AppError } from '#shared/errors.ts';
import { startBrowserHost } from '../../hosts/browser/http-host.ts';
import { rendererDir } from '../../hosts/browser/static.ts';
import { createMcpHttpHandler, MCP_PATH } from '../../hosts/mcp/http.ts';
import { withEngine } from '../context.ts';
import { print } from '../output.ts';

// The folder with the app's package.json: the clone from src/cli, the app from the bundle out/main/cli.js.
const REPO = findRepoRoot() ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function appVersion(): string {
  return (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The renderer is built once (electron-vite) the first time it is served from a fresh clone. */
function ensureRendererBuilt(): string {
  const dir = rendererDir(REPO);
  if (existsSync(join(dir, 'index.html'))) return dir;
  process.stderr.write('Building the app for the browser (first run only)…\n');
  const bin = join(
    dirname(createRequire(import.meta.url).resolve('electron-vite/package.json')),
    'bin',
    'electron-vite.js',
  );
  const built = spawnSync(process.execPath, [bin, 'build'], {
    cwd: REPO,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0 || !existsSync(join(dir, 'index.html'))) {
    throw new AppError('internal', 'Could not build the app (`npm run build` shows why).');
  }
  return dir;
}

type Tokens = { token: string; embedToken: string };

/**
 * While the app runs it serves agents too: the MCP endpoint at /mcp, and its embedding model at
 * /embed so that `brain mcp` processes started by agents use it instead of loading their own.
 * Made again, with the same tokens, on the engine opened after a restore ([N18]).
 */
function serveAgents(engine: Engine, { token, embedToken }: Tokens) {
  const mcp = createMcpHttpHandler({
    token,
    home: engine.home,
    user: engine.user,
    embedder: engine.embedder,
  });
  const isOwner = readLiveOwner(engine.home) === null;
  const embed = isOwner ? serveEmbeddings(engine.embedder, { token: embedToken }) : null;
  return {
    route: async (req: IncomingMessage, res: ServerResponse, url: URL) => {
      if (url.pathname === MCP_PATH) await mcp(req, res);
      else if (embed && url.pathname === EMBED_PATH) await embed(req, res);
      else return false;
      return true;
    },
    announce: (port: number) => {
      if (embed) writeOwnerFile(engine.home, { port, token: embedToken });
    },
    stop: () => {
      if (embed) removeOwnerFile(engine.home);
    },
    close: () => mcp.close(),
  };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new AppError('validation-failed', `--port takes a number from 0 to 65535 (got ${value}).`);
  }
  return port;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Serve the app in a browser on 127.0.0.1 (the same app as the desktop window)')
    .option('--port <n>', 'port (0 picks a free one)', '4830')
    .action((opts: { port: string }) =>
      withEngine(
        program,
        async (engine) => {
          const port = parsePort(opts.port);
          const staticDir = ensureRendererBuilt();
          const tokens = {
            token: randomBytes(24).toString('base64url'),
            embedToken: randomBytes(24).toString('base64url'),
          };
          // What serves agents now (made again after a restore) and the port, once listening.
          const live: { agents: ReturnType<typeof serveAgents> | null; port: number | null } = {
            agents: null,
            port: null,
          };
          // The first engine is the command's; one opened after a restore is the slot's ([N18]).
          let first: Engine | null = engine;
          const slot = await HostSlot.start(
            () => {
              const next = first ?? Engine.open({ home: engine.home, user: engine.user, surface: 'app' });
              first = null;
              return next;
            },
            { version: appVersion() },
            {
              attach: (host) => {
                live.agents = serveAgents(host.engine, tokens);
                if (live.port !== null) live.agents.announce(live.port);
              },
              detach: async () => {
                live.agents?.stop();
                await live.agents?.close();
                live.agents = null;
              },
            },
          );
          const running = await startBrowserHost({
            host: slot,
            port,
            staticDir,
            extra: (req, res, url) => live.agents?.route(req, res, url) ?? false,
          });
          live.port = running.port;
          live.agents?.announce(running.port);
          print(`Org Brain is running at ${running.url}`);
          print(
            `MCP endpoint for agents: http://127.0.0.1:${running.port}${MCP_PATH} (bearer token ${tokens.token})`,
          );
          print('Open that address in a browser on this machine. Ctrl+C stops it.');
          await new Promise<void>((done) => {
            const stop = () => done();
            process.once('SIGINT', stop);
            process.once('SIGTERM', stop);
          });
          await running.close();
          await slot.close();
        },
        { surface: 'app' },
      ),
    );
}
