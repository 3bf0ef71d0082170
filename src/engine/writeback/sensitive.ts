/**
 * The deterministic sensitive-data check that always runs on every proposal, whatever the model
 * said: secrets (API keys, tokens, private keys, passwords) and personal data (phone numbers,
 * IBANs, card numbers, personal addresses). A hit sends the proposal to review, never straight in.
 * What was detected is reported by kind with a masked sample, never the secret itself.
 */
export type Detection = { kind: string; sample: string };

type Rule = { kind: string; re: RegExp; check?: (match: string) => boolean };

/** Street words with either case for the first letter ("Street" or "street"). */
const STREET_WORDS = [
  'street',
  'st\\.?',
  'road',
  'rd\\.?',
  'avenue',
  'ave\\.?',
  'lane',
  'ln\\.?',
  'drive',
  'dr\\.?',
  'boulevard',
  'blvd\\.?',
  'way',
  'court',
  'ct\\.?',
  'place',
  'pl\\.?',
  'square',
  'terrace',
  'crescent',
]
  .map((w) => `[${w[0]?.toUpperCase()}${w[0]}]${w.slice(1)}`)
  .join('|');
const STREET_PREFIXES =
  'via|viale|piazza|corso|calle|avenida|rue|boulevard|avenue|chemin|rua|straße|strasse|weg|gasse|platz|allee';

const RULES: Rule[] = [
  { kind: 'private key', re: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----/ },
  { kind: 'API key', re: /\b(?:sk|pk|rk)-(?:live-|test-|proj-)?[A-Za-z0-9_-]{16,}\b/ },
  { kind: 'API key', re: /\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/ },
  { kind: 'API key', re: /\bAKIA[0-9A-Z]{16}\b/ },
  { kind: 'API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { kind: 'token', re: /\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}\b/ },
  { kind: 'token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/ },
  { kind: 'token', re: /\bglpat-[A-Za-z0-9_-]{20,}\b/ },
  { kind: 'token', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/ },
  { kind: 'token', re: /\bbearer\s+[A-Za-z0-9._~+/-]{20,}=*/i },
  {
    kind: 'API key',
    re: /\b(?:api[_ -]?key|api[_ -]?secret|secret[_ -]?key|access[_ -]?key|client[_ -]?secret|auth[_ -]?token|access[_ -]?token)\b["']?\s*(?:[:=]|is)\s*["']?[A-Za-z0-9._~+/-]{8,}/i,
  },
  {
    kind: 'password',
    re: /\b(?:password|passwd|pwd|passphrase|passwort|mot de passe)\b["']?\s*(?:[:=]|is|was)\s*["']?\S{4,}/i,
  },
  { kind: 'credentials in a URL', re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:[^\s@/]+@[^\s/]+/i },
  {
    kind: 'IBAN',
    re: /\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b/,
    check: (m) => ibanValid(m),
  },
  { kind: 'card number', re: /\b(?:\d[ -]?){13,19}\b/, check: (m) => luhn(m.replace(/\D/g, '')) },
  {
    kind: 'phone number',
    re: /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]?\d{2,4}){2,4}/,
    check: (m) => phoneLike(m),
  },
  {
    kind: 'personal address',
    re: new RegExp(
      `\\b\\d{1,5}[A-Za-z]?\\s+(?:[A-Z][\\p{L}'-]+\\s+){1,4}(?:${STREET_WORDS})(?=[\\s,.;]|$)`,
      'u',
    ),
  },
  {
    kind: 'personal address',
    re: new RegExp(
      `\\b(?:${STREET_PREFIXES})\\s+(?:[\\p{Lu}][\\p{L}'-]+\\s*){1,4},?\\s*\\d{1,5}[a-z]?\\b`,
      'iu',
    ),
  },
  {
    kind: 'personal address',
    re: /\b[\p{Lu}][\p{L}-]+(?:straße|strasse|weg|gasse|platz|allee)\s+\d{1,5}[a-z]?\b/u,
  },
];

function ibanValid(raw: string): boolean {
  const iban = raw.replace(/\s+/g, '');
  if (iban.length < 15 || iban.length > 34) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const v = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of v) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

function luhn(digits: string): boolean {
  if (digits.length < 13 || digits.length > 19 || /^(\d)\1+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** 8 to 15 digits written like a phone number, not a date, a year range, a version or an amount. */
function phoneLike(m: string): boolean {
  const digits = m.replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 15) return false;
  if (/^\d{4}-\d{2}-\d{2}/.test(m.trim())) return false; // an ISO date
  if (/^\d+$/.test(m.trim()) && !m.trim().startsWith('0')) return false; // a bare number: an id or an amount
  return m.trim().startsWith('+') || m.trim().startsWith('(') || /^0\d/.test(m.trim()) || /[\s.-]/.test(m);
}

function mask(text: string): string {
  const t = text.trim();
  if (t.length <= 6) return '•'.repeat(t.length);
  return `${t.slice(0, 3)}…${'•'.repeat(4)}`;
}

/** Every kind of sensitive data found in the text (each kind once), with a masked sample. */
export function detectSensitive(text: string): Detection[] {
  const out: Detection[] = [];
  for (const rule of RULES) {
    if (out.some((d) => d.kind === rule.kind)) continue;
    const re = new RegExp(rule.re.source, rule.re.flags.includes('g') ? rule.re.flags : `${rule.re.flags}g`);
    for (const m of text.matchAll(re)) {
      if (rule.check && !rule.check(m[0])) continue;
      out.push({ kind: rule.kind, sample: mask(m[0]) });
      break;
    }
  }
  return out;
}
