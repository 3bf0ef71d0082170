/**
 * Where a value holds a NUL character (U+0000), as a path (`body`, `items[2].label`), or null.
 * Neither store keeps one: PostgreSQL's text and jsonb refuse it, and SQLite's text functions stop
 * at it. So the server refuses an op holding one and every operation of the contract refuses such
 * input, each naming where it is.
 */
export function nulAt(value: unknown, at = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? at || '(the value)' : null;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = nulAt(v, `${at}[${i}]`);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const found = nulAt(v, at ? `${at}.${k}` : k);
      if (found) return found;
    }
  }
  return null;
}
