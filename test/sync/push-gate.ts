/**
 * A gate between a replica and the workspace server, for the mid-push crash test
 * (test/sync/e2e.test.ts): it forwards every request, and holds the Nth push until the test lets
 * it go. So the server can be killed while a push is certainly in flight, on a fast machine too.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type PushGate = {
  url: string;
  /** Resolves when the held push has arrived (the ones before it were answered). */
  held: Promise<void>;
  /** Lets the held push go on to the server (dead or alive). */
  release(): void;
  close(): Promise<void>;
};

export async function startPushGate(target: () => string, holdPush: number): Promise<PushGate> {
  let pushes = 0;
  let arrived!: () => void;
  const held = new Promise<void>((r) => (arrived = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method === 'POST' && req.url?.startsWith('/v1/push') && ++pushes === holdPush) {
      arrived();
      await released;
    }
    const to = new URL(req.url ?? '/', target());
    const out = request(to, { method: req.method, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy()); // the server is down: the replica sees the connection fail
    out.end(Buffer.concat(chunks));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    held,
    release,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
