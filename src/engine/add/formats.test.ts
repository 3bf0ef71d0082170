/**
 * The formats of docs/FORMATS.md end to end: CSV, TSV, HTML and PPTX files added, indexed and
 * searched by a real engine; each hit's citation reads back exactly its passage, and the dossier
 * highlights it in the file's text. A hostile file is refused alone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeCitation } from '#shared/citation.ts';
import { buildPptx } from '../../../test/ingest-helpers/build-pptx.ts';
import type { Engine } from '../engine.ts';
import { dossier } from '../read/dossier.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';

let ws: TestWorkspace;
let engine: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
});
afterEach(async () => ws.cleanup());

const rows = Array.from(
  { length: 80 },
  (_, i) => `Person ${i},Team ${i % 7},${i === 61 ? 'Zanzibar' : 'Oslo'}`,
);
const PAGE = `<html><head><title>Wiki</title><script>var quokkascript = 1;</script></head>
<body><nav>Home quokkanav</nav><main><h1>Animals</h1><p>The quokka lives on <a href="/r">Rottnest</a>.</p></main></body></html>`;

describe('new formats through the engine', () => {
  it('[F3][F7][F9] csv, tsv, html and pptx are found by search and their citations read back', async () => {
    const deck = await buildPptx([
      { title: 'Intro', body: ['Welcome'] },
      { title: 'Ocean', body: ['Whales'], notes: ['Mention the narwhal'] },
    ]);
    const added = await engine.add([
      ws.write('people.csv', `Name,Team,City\n${rows.join('\n')}\n`),
      ws.write('tools.tsv', 'Tool\tOwner\nKettlebell\tAnn\n'),
      ws.write('wiki.html', PAGE),
      ws.write('deck.pptx', deck),
      ws.write(
        'fake.csv',
        Uint8Array.from({ length: 4000 }, (_, i) => (i % 7 === 0 ? 0 : (i * 31) % 256)),
      ),
    ]);
    expect(added.added.map((a) => a.path.split('/').pop())).toEqual([
      'people.csv',
      'tools.tsv',
      'wiki.html',
      'deck.pptx',
    ]);
    expect(added.refused).toEqual([
      { path: expect.stringMatching(/fake\.csv$/), reason: 'binary content, not text' },
    ]);
    await engine.index();

    const expected: Record<string, [RegExp, string]> = {
      zanzibar: [/^people\.csv, rows \d+-\d+$/, 'City: Zanzibar'],
      kettlebell: [/^tools\.tsv, rows 2-2$/, 'Tool: Kettlebell\nOwner: Ann'],
      quokka: [/^Wiki, lines 1-3$/, 'The quokka lives on Rottnest.'],
      narwhal: [/^deck\.pptx, slide 2$/, 'Notes:\n\nMention the narwhal'],
    };
    for (const [word, [cited, text]] of Object.entries(expected)) {
      const { hits } = await engine.search(word, { mode: 'keyword' });
      const hit = hits.find((h) => h.storageKind === 'section');
      expect(hit, word).toBeDefined();
      expect(describeCitation(hit!.citation), word).toMatch(cited);
      expect(hit!.body, word).toContain(text);
      expect((await engine.read(hit!.id)).text, word).toBe(hit!.body);
      const d = await dossier(engine, hit!.id);
      expect(d.highlight, word).not.toBeNull();
      expect(d.text!.slice(d.highlight!.start, d.highlight!.end), word).toBe(hit!.body);
    }
    for (const word of ['quokkascript', 'quokkanav']) {
      expect((await engine.search(word, { mode: 'keyword' })).hits, word).toEqual([]);
    }
  });
});
