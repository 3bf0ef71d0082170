/**
 * Turns a free-text question into an FTS5 query: words only (no FTS syntax from the user reaches
 * the engine), stop words dropped, each term quoted, OR-ed so that BM25 ranks partial matches.
 * Chinese, Japanese and Korean runs are cut into words and searched as the index holds them
 * (src/engine/search/scripts.ts).
 */
import { ftsTerm, isRunWord, runWords, spaceRuns } from './scripts.ts';

const ENGLISH_STOP =
  'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
  'me my no not of on or our she he so than that the their them then there these they this to was we were what ' +
  'when where which who whom why will with would you your yo hi hello hey thanks thank ok okay please';
/** German function words; the few that are English words too ("am", "im", "er") are stop words in English as well. */
const GERMAN_STOP =
  'der das den dem des ein eine einer eines einem einen und ist sind wie wann wer welche welcher welches ' +
  'nicht von zu auf für über bei nach aus sich auch oder wird werden im am sie er wir ihr ich du';
const STOP = new Set(`${ENGLISH_STOP} ${GERMAN_STOP}`.split(' '));
/** German function words that are English words too ("die", "man", "mit" as in MIT): dropped only from a German question. */
const GERMAN_ALSO_ENGLISH = new Set(['die', 'man', 'mit', 'hat', 'bin', 'war', 'also']);
/** A question holding one of these is German ("am", "im", "er" are English words too, so they do not tell). */
const GERMAN_MARKERS = new Set(GERMAN_STOP.split(' ').filter((w) => !['am', 'im', 'er'].includes(w)));

const MAX_TERMS = 32;

export function queryTerms(text: string): string[] {
  const words = spaceRuns(text.toLowerCase()).match(/[\p{L}\p{N}]+/gu) ?? [];
  const german = words.some((w) => GERMAN_MARKERS.has(w));
  const terms: string[] = [];
  for (const w of words.flatMap((w) => (isRunWord(w) ? runWords(w) : [w]))) {
    if (STOP.has(w) || (german && GERMAN_ALSO_ENGLISH.has(w)) || terms.includes(w)) continue;
    terms.push(w);
    if (terms.length >= MAX_TERMS) break;
  }
  return terms;
}

export function ftsQuery(terms: readonly string[]): string {
  return terms.map(ftsTerm).join(' OR ');
}
