/**
 * The browser host hands its per-launch token in the URL fragment (`#token=…`). We read it once, keep
 * it for the tab's lifetime in sessionStorage (a reload keeps working) and strip it from the address bar
 * so it is not left in history or screenshots.
 */
const TOKEN_STORAGE_KEY = 'org-brain.token';

export type TokenReading = {
  /** The token to use, or null when neither the URL nor the session holds one. */
  token: string | null;
  /** The fragment to leave in the URL ('' when only the token was there). */
  cleanedHash: string;
  /** Whether the URL carried the token (and so must be rewritten). */
  fromHash: boolean;
};

/** Pure: reads the token from a `location.hash` value, falling back to the stored one. */
export function readToken(hash: string, stored: string | null): TokenReading {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  const params = new URLSearchParams(raw);
  const fromUrl = params.get('token');
  if (fromUrl && fromUrl.trim() !== '') {
    params.delete('token');
    const rest = params.toString();
    return { token: fromUrl.trim(), cleanedHash: rest ? `#${rest}` : '', fromHash: true };
  }
  const token = stored && stored.trim() !== '' ? stored : null;
  return { token, cleanedHash: hash, fromHash: false };
}

/** Reads the token from the live page, stores it and removes it from the URL. */
export function takeTokenFromLocation(): string | null {
  let stored: string | null = null;
  try {
    stored = window.sessionStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    stored = null;
  }
  const reading = readToken(window.location.hash, stored);
  if (reading.token) {
    try {
      window.sessionStorage.setItem(TOKEN_STORAGE_KEY, reading.token);
    } catch {
      // Storage can be disabled; the token still works for this page load.
    }
  }
  if (reading.fromHash) {
    const url = `${window.location.pathname}${window.location.search}${reading.cleanedHash}`;
    window.history.replaceState(window.history.state, '', url);
  }
  return reading.token;
}
