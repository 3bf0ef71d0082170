/** Serves the built renderer (out/renderer) with the app's CSP; never a file outside that folder. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '#shared/csp.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  // pdf.js's worker (docs/FORMATS.md [F15]): a module worker must come as JavaScript.
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

export function serveStatic(root: string, urlPath: string, res: ServerResponse): boolean {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return false;
  }
  if (rel === '/' || rel === '') rel = '/index.html';
  const full = resolve(root, `.${normalize(rel)}`);
  if (full !== root && !full.startsWith(root + sep)) return false;
  if (!existsSync(full) || !statSync(full).isFile()) return false;
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': TYPES[extname(full)] ?? 'application/octet-stream',
    'Cache-Control': full.endsWith('index.html') ? 'no-store' : 'max-age=3600',
  });
  res.end(readFileSync(full));
  return true;
}

export function rendererDir(repoRoot: string): string {
  return join(repoRoot, 'out', 'renderer');
}
