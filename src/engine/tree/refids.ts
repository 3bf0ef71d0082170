/**
 * Reference ids (identifiers such as `RULE-INV01-0001`, `ADR-003`, `R-01`): what a card is
 * named by and what a mention names.
 *
 * The pattern, exactly: two or more groups of uppercase ASCII letters and digits joined by single
 * hyphens, the first group starting with a letter, with at least one digit somewhere, at most 64
 * characters, and standing alone as a word (no letter, digit, `_` or `-` touching either end;
 * a trailing hyphen before a non-word character is fine). `ADR003` (one group), `Adr-003`
 * (lowercase) and `ABC-DEF` (no digit) are not ids; `HTTP-2` and `ISO-8601` are.
 */

const MAX_ID = 64;
const ID_SOURCE = '[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+';
const ID_IN_TEXT = new RegExp(`(?<![A-Za-z0-9_-])${ID_SOURCE}(?![A-Za-z0-9_]|-[A-Za-z0-9_])`, 'g');
const ID_AT_START = new RegExp(`^${ID_SOURCE}(?![A-Za-z0-9_]|-[A-Za-z0-9_])`);

function valid(id: string): boolean {
  return id.length <= MAX_ID && /[0-9]/.test(id);
}

/** Whether a whole string is a reference id. */
export function isRefId(text: string): boolean {
  const m = ID_AT_START.exec(text);
  return m !== null && m[0].length === text.length && valid(text);
}

/** The reference id a heading starts with (after leading spaces), or null: that heading is a card. */
export function leadingRefId(heading: string): string | null {
  const m = ID_AT_START.exec(heading.trimStart());
  return m && valid(m[0]) ? m[0] : null;
}

/** Every reference id written in a text, with its offset, in order. */
export function findRefIds(text: string): { id: string; index: number }[] {
  const out: { id: string; index: number }[] = [];
  if (!/[A-Z][A-Z0-9]*-/.test(text)) return out;
  ID_IN_TEXT.lastIndex = 0;
  for (let m = ID_IN_TEXT.exec(text); m; m = ID_IN_TEXT.exec(text)) {
    if (valid(m[0])) out.push({ id: m[0], index: m.index });
  }
  return out;
}
