/**
 * Raw HTTP requests to a local endpoint with the headers a test chooses (fetch will not let it set
 * Host or Origin), for the guard's table tests (test/local-http.test.ts). Each probe answers the
 * status the endpoint gave.
 */
import { request } from 'node:http';

/** One guarded endpoint and the request it answers 200 to. */
export type Endpoint = {
  name: string;
  path: string;
  /** Its body cap in bytes ([H3]). */
  cap: number;
  port: number;
  /** Its per-launch token ([H1]); empty for a route that needs none. */
  token: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
};

/** What to change in the good request; everything not named stays as the endpoint's. */
export type Probe = {
  /** The bearer token to send instead of the endpoint's; null for none. */
  token?: string | null;
  /** A raw Authorization header, instead of any token. */
  auth?: string;
  /** Send a token as ?token=. */
  query?: string;
  host?: string;
  origin?: string;
  /** POST a body one byte over `cap`, with its length declared or streamed in chunks. */
  oversize?: 'declared' | 'streamed';
  cap?: number;
};

const CHUNK = 64 * 1024;

export function probe(endpoint: Endpoint, p: Probe): Promise<number> {
  const token = p.token === undefined ? endpoint.token : p.token;
  const headers: Record<string, string> = {
    ...endpoint.headers,
    host: p.host ?? `127.0.0.1:${endpoint.port}`,
  };
  const auth = p.auth ?? (token ? `Bearer ${token}` : undefined);
  if (auth) headers.authorization = auth;
  if (p.origin !== undefined) headers.origin = p.origin;
  const body = p.oversize ? Buffer.alloc((p.cap ?? 0) + 1, 0x20) : Buffer.from(endpoint.body ?? '');
  const method = p.oversize ? 'POST' : (endpoint.method ?? 'POST');
  if (method === 'POST' && p.oversize !== 'streamed') headers['content-length'] = String(body.length);
  const path =
    p.query === undefined ? endpoint.path : `${endpoint.path}?token=${encodeURIComponent(p.query)}`;
  return new Promise((done, fail) => {
    let answered = false;
    const req = request(
      { host: '127.0.0.1', port: endpoint.port, path, method, headers, agent: false },
      (res) => {
        answered = true;
        done(res.statusCode ?? 0);
        // Only the status matters; an event stream would never end by itself.
        res.destroy();
        req.destroy();
      },
    );
    // An endpoint may answer (413) and stop reading before the whole body is sent.
    req.on('error', (err) => {
      if (!answered) fail(err);
    });
    if (method === 'GET') return void req.end();
    // A declared body over the cap is refused before a byte of it is read ([H3]): send only the
    // headers and wait. (Writing the body too races the server closing the socket after its 413:
    // under load the client could see the reset before the answer.)
    if (p.oversize === 'declared') return void req.flushHeaders();
    if (p.oversize !== 'streamed') return void req.end(body);
    for (let at = 0; at < body.length; at += CHUNK) req.write(body.subarray(at, at + CHUNK));
    req.end();
  });
}
