/**
 * Text written without spaces between words (Chinese, Japanese; Korean attaches its particles),
 * made searchable by FTS5's unicode61 tokenizer, which would keep a whole run of such characters,
 * up to the next punctuation, as one token: "すべての人間は" could be found only by itself.
 * [R7] in docs/RETRIEVAL.md.
 *
 * The index holds each run as overlapping character pairs, plus its last character alone:
 * 人間は -> "人間 間は は". A pair is the same whoever cuts the words, so the index is a pure
 * function of the text (no dictionary whose version could change between a row's insert and its
 * delete, which FTS5 must be given the same text for). A question is cut into words with the
 * runtime's dictionary (Intl.Segmenter) and each word is searched as the phrase of its pairs, so
 * "人間" finds every text holding 人間, whatever word it sits in; a word of one character is the
 * prefix of the tokens that begin with it (the lone last character makes every character begin
 * one). The German ß is spelled ss on both sides, as unicode61 folds diacritics but not ß.
 * Changing what indexText makes changes what the index holds for rows already in it: it needs a
 * migration that takes them out with the old spelling and puts them back (as 0024 did).
 */

/** Han, kana (with the prolonged sound and iteration marks) and Hangul. */
const RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\u3005\u3006]+/gu;
const ANY = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\u3005\u3006ßẞ]/u;
const ONE = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\u3005\u3006]+$/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const KANA_ONLY = /^[\p{Script=Hiragana}\p{Script=Katakana}\u30fc]+$/u;
/** Chinese function characters that carry no topic, left out of a question like stop words. */
const RUN_STOP = new Set(Array.from('的了是在和与及或也都就把被吗呢吧啊之其'));

const HIRAGANA_ONLY = /^[\p{Script=Hiragana}\u30fc]+$/u;

/** A word that carries no topic: a lone kana or character of function, or short hiragana (にし, ある). */
function isRunStop(word: string): boolean {
  const n = Array.from(word).length;
  return (n === 1 && (KANA_ONLY.test(word) || RUN_STOP.has(word))) || (n <= 2 && HIRAGANA_ONLY.test(word));
}

/** 人間は -> 人間, 間は: each character with the next one. */
function charPairs(chars: readonly string[]): string[] {
  return chars.slice(1).map((c, i) => `${chars[i]}${c}`);
}

/** A run as the index holds it: its pairs and its last character (a lone character alone). */
function pairs(run: string): string[] {
  const chars = Array.from(run);
  return chars.length === 1 ? chars : [...charPairs(chars), chars.at(-1) as string];
}

/**
 * Presentation and width forms ([R7] in docs/RETRIEVAL.md): ligatures (ﬁ), Arabic presentation
 * forms (what PDFs of Arabic text give: ﻟﻌﺮﺑﻴﺔ), fullwidth Latin and digits (ＣＳＶ, common in
 * Japanese text) and halfwidth katakana (ｶﾞ). Each run of them is read as NFKC makes it (ﻟﻌﺮﺑﻴﺔ ->
 * لعربية, ＣＳＶ -> CSV, ｶﾞ -> ガ), in the index and in questions alike.
 */
const COMPAT = /[\ufb00-\ufdff\ufe70-\ufeff\uff00-\uffef]+/gu;
const HAS_COMPAT = /[\ufb00-\ufdff\ufe70-\ufeff\uff00-\uffef]/u;

export function compatFolded(text: string): string {
  return HAS_COMPAT.test(text) ? text.replace(COMPAT, (run) => run.normalize('NFKC')) : text;
}

/**
 * What the full-text index held for a label or body from migration 0024 until 0026: runs as
 * pairs and ß as ss, not compatFolded. Migration 0026 takes rows out with it; nothing else uses it.
 */
export function indexTextBefore0026(text: string): string {
  if (!ANY.test(text)) return text;
  return text.replace(/[ßẞ]/g, 'ss').replace(RUN, (run) => ` ${pairs(run).join(' ')} `);
}

/** What the full-text index holds for a label or body: the text itself when it has none of these. */
export function indexText(text: string): string {
  return indexTextBefore0026(compatFolded(text));
}

/** True when a query word is written in one of these scripts. */
export function isRunWord(word: string): boolean {
  return ONE.test(word);
}

/** A question's run up to this many characters is also searched whole, as a phrase. */
const WHOLE_RUN_MAX = 12;

/**
 * The words of a run in a question, by the runtime's dictionary (Japanese when it holds kana):
 * "尊厳と権利" -> 尊厳, 権利. Lone kana and short hiragana words (particles and endings: は, の,
 * と, ある) and Chinese function characters are left out, as stop words are. Characters the dictionary leaves one by one next to each other
 * are a word it does not know ("文档" -> 文, 档) and are kept together. A short run is searched
 * whole as well: "理性と良心" -> 理性, 良心, 理性と良心.
 */
export function runWords(run: string): string[] {
  const segmenter = new Intl.Segmenter(KANA.test(run) ? 'ja' : 'zh', { granularity: 'word' });
  const words: string[] = [];
  let single = '';
  const flush = () => {
    if (single && !isRunStop(single)) words.push(single);
    single = '';
  };
  for (const s of segmenter.segment(run)) {
    const one = Array.from(s.segment).length === 1;
    if (!s.isWordLike || !ONE.test(s.segment) || isRunStop(s.segment)) {
      flush();
      continue;
    }
    if (one) {
      single += s.segment;
      continue;
    }
    flush();
    words.push(s.segment);
  }
  flush();
  if (words.length === 0) return [run];
  // The run as written, too: a text holding it whole ranks above one holding its words apart.
  const whole = Array.from(run).length;
  if (words.length > 1 && whole <= WHOLE_RUN_MAX) words.push(run);
  return words;
}

/** Splits runs off the words around them ("API文档" -> "API 文档"), folded as the index is. */
export function spaceRuns(raw: string): string {
  const text = compatFolded(raw);
  if (!ANY.test(text)) return text;
  return text.replace(/[ßẞ]/g, 'ss').replace(RUN, (run) => ` ${run} `);
}

/** One query word as FTS5 query syntax: a quoted term, a phrase of pairs, or a prefix. */
export function ftsTerm(word: string): string {
  if (!isRunWord(word)) return `"${word.replaceAll('"', '""')}"`;
  const chars = Array.from(word);
  if (chars.length === 1) return `"${word}"*`;
  return `"${charPairs(chars).join(' ')}"`;
}
