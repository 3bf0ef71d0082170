/**
 * Generated CSV, HTML and PPTX files for the indexing bench (bench/indexing.ts): the same Zipf
 * vocabulary as the Markdown run, in the shapes people drop — an export table with a header row,
 * saved web pages with navigation, scripts and styles around the article, and slide decks with
 * titles, bullets, a table and speaker notes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildPptx, type SlideSpec } from '../test/ingest-helpers/build-pptx.ts';
import { vocabulary } from './corpus.ts';
import { rng, zipfSampler } from './util.ts';

export type Written = { files: number; bytes: number };

function wordsOf(seed: number): (n: number) => string {
  const vocab = vocabulary();
  const rand = rng(seed);
  const zipf = zipfSampler(vocab.length, 1.05, rand);
  return (n: number) => Array.from({ length: n }, () => vocab[zipf()]).join(' ');
}

function writeAll(
  dir: string,
  totalMb: number,
  ext: string,
  make: (i: number) => string | Uint8Array,
): Written {
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  let files = 0;
  while (bytes < totalMb * 1024 * 1024) {
    const body = make(files);
    writeFileSync(join(dir, `file-${String(files).padStart(5, '0')}.${ext}`), body);
    bytes += typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    files++;
  }
  return { files, bytes };
}

/** CSV exports of about 256 KB: an id, a date, a name, a status and a free-text column. */
export function writeCsv(dir: string, totalMb: number): Written {
  const words = wordsOf(21);
  return writeAll(dir, totalMb, 'csv', (f) => {
    const rows = ['id,date,name,status,description'];
    let size = 0;
    for (let i = 0; size < 256 * 1024; i++) {
      const desc = words(12 + (i % 20));
      const row = `${f * 100_000 + i},2026-${String((i % 12) + 1).padStart(2, '0')}-15,"${words(2)}",${i % 3 ? 'open' : 'closed'},"${desc}"`;
      rows.push(row);
      size += row.length + 1;
    }
    return `${rows.join('\n')}\n`;
  });
}

/** Saved pages of about 64 KB: navigation, a script and a style around an article with headings. */
export function writeHtml(dir: string, totalMb: number): Written {
  const words = wordsOf(31);
  return writeAll(dir, totalMb, 'html', () => {
    const nav = `<nav><ul>${Array.from({ length: 12 }, () => `<li><a href="/x">${words(2)}</a></li>`).join('')}</ul></nav>`;
    const parts: string[] = [`<h1>${words(4)}</h1>`];
    let size = 0;
    for (let i = 0; size < 64 * 1024; i++) {
      const block =
        i % 7 === 0
          ? `<h2>${words(4)}</h2>`
          : i % 5 === 0
            ? `<ul><li>${words(8)}</li><li>${words(8)}</li><li>${words(8)}</li></ul>`
            : `<p>${words(60)} <a href="https://example.com/${i}">${words(2)}</a>.</p>`;
      parts.push(block);
      size += block.length;
    }
    return `<!doctype html><html><head><title>${words(3)}</title><style>body{font:14px sans-serif}</style><script>window.track&&track("${words(3)}")</script></head><body>${nav}<main><article>${parts.join('\n')}</article></main><footer>${words(10)}</footer></body></html>\n`;
  });
}

/** Decks of 30 slides: a title, five bullets, every fifth slide a table, speaker notes. */
export async function writePptx(dir: string, totalMb: number): Promise<Written> {
  const words = wordsOf(41);
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  let files = 0;
  while (bytes < totalMb * 1024 * 1024) {
    const slides: SlideSpec[] = Array.from({ length: 30 }, (_, i) => ({
      title: words(4),
      body: Array.from({ length: 5 }, () => words(14)),
      ...(i % 5 === 0 ? { table: Array.from({ length: 4 }, () => [words(1), words(3), words(2)]) } : {}),
      notes: [words(40)],
    }));
    const deck = await buildPptx(slides);
    writeFileSync(join(dir, `deck-${String(files).padStart(5, '0')}.pptx`), deck);
    bytes += deck.byteLength;
    files++;
  }
  return { files, bytes };
}
