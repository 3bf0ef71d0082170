/**
 * Pure security helpers for the main process. This file must not import electron, so the rules it
 * encodes can be unit-tested in plain Node (see security.test.ts).
 */

// Relative on purpose: electron.vite.config.ts loads this file, and its loader leaves `#` imports to Node.
import { CONTENT_SECURITY_POLICY } from '../shared/csp.ts';

export { CONTENT_SECURITY_POLICY };

/**
 * Development only (electron-vite dev server): Vite's React Fast Refresh preamble is an inline script and
 * Vite injects CSS as <style> elements, so those two directives also allow inline code. Never used for a
 * built app: main picks it only when it loads the dev server, and the build keeps the strict meta tag.
 */
export const DEV_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
  "script-src 'self'",
  "script-src 'self' 'unsafe-inline'",
).replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

/** Where the app's own UI is served from. */
export type AppLocation = {
  /** file:// URL of the built renderer's index.html. */
  rendererFileUrl: string;
  /** The electron-vite dev server URL (ELECTRON_RENDERER_URL); only set in development. */
  devServerUrl?: string | null;
};

/** Longest URL the app hands to the operating system. */
export const MAX_EXTERNAL_URL_LENGTH = 8192;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function parseUrl(raw: unknown): URL | null {
  if (typeof raw !== 'string' || raw.length === 0) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

function hasCredentials(url: URL): boolean {
  return url.username !== '' || url.password !== '';
}

/**
 * The dev server origin, if `raw` is an acceptable dev server URL: http(s) on a loopback host, without
 * credentials. Anything else yields null, so a tampered environment variable cannot widen trust.
 */
export function parseDevServerUrl(raw: unknown): URL | null {
  const url = parseUrl(raw);
  if (!url) return null;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (hasCredentials(url)) return null;
  if (!LOOPBACK_HOSTS.has(url.hostname)) return null;
  return url;
}

/**
 * True only for the app's own UI: exactly the renderer's index.html over file:// (any query or hash), or
 * the dev server's exact origin (scheme, host and port). Everything is compared on parsed URLs, never on
 * substrings: credentials, other hosts or ports, lookalike hosts and other files are all rejected.
 */
export function isTrustedUrl(raw: unknown, app: AppLocation): boolean {
  const url = parseUrl(raw);
  if (!url || hasCredentials(url)) return false;

  if (url.protocol === 'file:') {
    const renderer = parseUrl(app.rendererFileUrl);
    if (renderer?.protocol !== 'file:') return false;
    return url.host === '' && renderer.host === '' && url.pathname === renderer.pathname;
  }

  const dev = parseDevServerUrl(app.devServerUrl);
  if (!dev) return false;
  return url.origin === dev.origin;
}

/**
 * The normalized href to open in the user's browser, or null. Only http and https, no credentials
 * (`https://bank.example@evil.example` style), parsed with the URL parser.
 */
export function toSafeExternalUrl(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > MAX_EXTERNAL_URL_LENGTH) return null;
  const url = parseUrl(raw);
  if (!url) return null;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (hasCredentials(url) || url.hostname === '') return null;
  return url.href;
}

/**
 * The one way the app opens a link outside itself. `open` is electron's shell.openExternal, injected so
 * this file stays free of electron. Returns whether the link was handed over.
 */
export async function openExternalSafely(
  raw: unknown,
  open: (href: string) => Promise<void>,
): Promise<boolean> {
  const href = toSafeExternalUrl(raw);
  if (href === null) return false;
  try {
    await open(href);
    return true;
  } catch {
    return false;
  }
}

/**
 * Response headers with the app's CSP set, replacing any CSP the response carried (header names compare
 * case-insensitively).
 */
export function withContentSecurityPolicy(
  headers: Record<string, string[]> | undefined,
  policy: string,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'content-security-policy') out[name] = value;
  }
  out['Content-Security-Policy'] = [policy];
  return out;
}
