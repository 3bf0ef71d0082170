/** The real workspace server as a child process (`brain server --data DIR --port N`), killable and restartable. */
import { type ChildProcess, spawn } from 'node:child_process';
import { BRAIN } from '../cli-process.ts';

export type ServerProcess = {
  url: string;
  port: number;
  /** The admin invitation printed on first start (null on later starts). */
  invite: string | null;
  child: ChildProcess;
  output: () => string;
};

export async function startServerProcess(dataDir: string, port = 0): Promise<ServerProcess> {
  const child = spawn('node', [BRAIN, 'server', '--data', dataDir, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: '' },
  });
  let out = '';
  return await new Promise<ServerProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${out}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening at (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
      if (!url) return;
      // the invitation line comes right after the URL on a first start; give it a moment
      setTimeout(() => {
        clearTimeout(timer);
        const invite = /^invite: (\S+)$/m.exec(out)?.[1] ?? null;
        resolve({ url: url[1] as string, port: Number(url[2]), invite, child, output: () => out });
      }, 300);
      child.stdout?.off('data', onData);
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}

export async function killServer(server: ServerProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill(signal);
  await exited;
}
