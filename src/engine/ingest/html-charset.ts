/**
 * [F25] in docs/FORMATS.md: a web page that is not UTF-8 is read in the character set it declares
 * in a `<meta>` within its first 1024 bytes (`<meta charset="…">`, or the `charset=` of a
 * Content-Type `<meta http-equiv>`), as a browser's prescan finds it; a BOM and text that is valid
 * UTF-8 win over the declaration (a page saved as UTF-8 that still says "iso-8859-1" is common),
 * and a page that declares nothing, or a set not known, is guessed as any text is ([F22]).
 */
import { decodeBytes, decodeText, detectEncoding, isLegacyEncoding, legacyName } from './text-decode.ts';

/** How far into the page the declaration is looked for (the WHATWG prescan's limit). */
const PRESCAN_BYTES = 1024;

type Declared = { label: string; encoding: string | null };

/** The WHATWG encoding a label names, or null when it names none that can be decoded here. */
function encodingOf(label: string): string | null {
  const l = label.trim().toLowerCase();
  // A page in bytes cannot be UTF-16; WHATWG reads these two labels as UTF-8, and the next as 1252.
  if (l === 'utf-16' || l === 'utf-16le' || l === 'utf-16be' || l === 'unicode') return 'utf-8';
  if (l === 'x-user-defined') return 'windows-1252';
  try {
    return new TextDecoder(l).encoding;
  } catch {
    // Unknown, or a label of WHATWG's "replacement" encoding (Node has no decoder for it).
    return null;
  }
}

/** The value after `charset=` in a Content-Type, as WHATWG extracts it from a meta element. */
function charsetOfContent(content: string): string | null {
  const m = /charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))/i.exec(content);
  return m ? (m[1] ?? m[2] ?? m[3] ?? null) : null;
}

const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/g;

function attributesOf(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(ATTRIBUTE)) {
    const name = (m[1] ?? '').toLowerCase();
    if (!out.has(name)) out.set(name, m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

/**
 * The first character set a `<meta>` in the page's first 1024 bytes declares and that is known;
 * else the first one declared, with a null encoding; else null. Comments are skipped.
 */
function declaredCharset(bytes: Uint8Array): Declared | null {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, PRESCAN_BYTES));
  const visible = head.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ');
  let unknown: Declared | null = null;
  for (const m of visible.matchAll(/<meta[\s/]([^>]*)/gi)) {
    const attributes = attributesOf(m[1] ?? '');
    let label = attributes.get('charset') ?? null;
    if (label === null && attributes.get('http-equiv')?.trim().toLowerCase() === 'content-type')
      label = charsetOfContent(attributes.get('content') ?? '');
    if (label === null || label.trim() === '') continue;
    const encoding = encodingOf(label);
    if (encoding) return { label, encoding };
    unknown ??= { label: label.trim(), encoding: null };
  }
  return unknown;
}

const SPECIAL_NAMES: Record<string, string> = {
  shift_jis: 'Shift_JIS',
  big5: 'Big5',
  macintosh: 'Macintosh',
  'x-mac-cyrillic': 'x-mac-cyrillic',
};

/**
 * "windows-1253" → "Windows-1253", "iso-8859-2" → "ISO-8859-2", "gbk" → "GBK"; an encoding that
 * could also have been guessed is named as a guess names it ("Windows-1251 (Cyrillic)").
 */
function displayName(encoding: string): string {
  if (isLegacyEncoding(encoding)) return legacyName(encoding);
  if (SPECIAL_NAMES[encoding]) return SPECIAL_NAMES[encoding];
  if (encoding.startsWith('windows-')) return `Windows-${encoding.slice('windows-'.length)}`;
  return encoding.toUpperCase();
}

/** A page's text, in the character set it declares where that applies ([F25]); health says how it was read. */
export function decodePage(bytes: Uint8Array): { text: string; health: string[] } {
  const guessed = () => {
    const d = decodeText(bytes);
    return { text: d.text, health: d.health };
  };
  // A BOM, UTF-16 or UTF-32 by its NULs, and valid UTF-8 are what they are, whatever is declared.
  if (!isLegacyEncoding(detectEncoding(bytes).encoding)) return guessed();
  const declared = declaredCharset(bytes);
  if (!declared || declared.encoding === 'utf-8') return guessed();
  if (declared.encoding === null) {
    const g = guessed();
    const note = `the page declares the character set "${declared.label}", which is not known`;
    return { text: g.text, health: [note, ...g.health] };
  }
  const text =
    declared.encoding === 'windows-1252'
      ? decodeBytes(bytes, 'windows-1252')
      : new TextDecoder(declared.encoding, { ignoreBOM: true }).decode(bytes);
  return { text, health: [`not UTF-8: decoded as ${displayName(declared.encoding)}, as the page declares`] };
}
