/**
 * [R7] in docs/RETRIEVAL.md: Chinese, Japanese and Korean text is found by the words inside a run
 * of characters, and German by its folded spelling, on a real engine and a real SQLite file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { run as migrateScripts } from '../db/migrations/0024-fts-scripts.ts';
import { run as migrateCompat } from '../db/migrations/0026-fts-compat.ts';
import type { Engine } from '../engine.ts';
import { indexedWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { ftsQuery, queryTerms } from './keyword.ts';
import { compatFolded, indexText, indexTextBefore0026 } from './scripts.ts';

let ws: TestWorkspace;
afterEach(async () => ws?.cleanup());

const UDHR_JA =
  'すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。人間は、理性と良心とを授けられており、互いに同胞の精神をもって行動しなければならない。';
const EXCELJS_ZH =
  '# 安装\n\nnpm install exceljs\n\n# 工作表属性\n\n工作表支持属性存储桶，以允许控制工作表的某些功能。\n\n# 合并单元格\n\n可以合并单元格，合并后的单元格保留左上角单元格的值。';
const GERMAN =
  '# Umzug\n\nDie Spedition Müller holt die Möbel in der Hauptstraße 5 ab. Größere Stücke werden verpackt.';

async function indexed(files: Record<string, string>): Promise<Engine> {
  const made = await indexedWorkspace(files);
  ws = made.ws;
  return made.engine;
}

/** Puts every indexed row back into the full-text index spelt as an earlier version spelt it. */
function respellIndex(engine: Engine, spell: (text: string) => string): void {
  const rows = engine.db.prepare('SELECT rowid, label, body FROM items WHERE indexed = 1').all() as {
    rowid: number;
    label: string;
    body: string;
  }[];
  for (const r of rows) {
    engine.db
      .prepare("INSERT INTO items_fts (items_fts, rowid, label, body) VALUES ('delete', ?, ?, ?)")
      .run(r.rowid, indexText(r.label), indexText(r.body));
    engine.db
      .prepare('INSERT INTO items_fts (rowid, label, body) VALUES (?, ?, ?)')
      .run(r.rowid, spell(r.label), spell(r.body));
  }
}

const found = async (engine: Engine, question: string) =>
  (await engine.search(question, { mode: 'keyword', k: 5 })).hits.map(
    (h) => h.citation?.fileLabel ?? h.label,
  );

describe('[R7] text without spaces between words', () => {
  it('holds a run as overlapping pairs and its last character, and leaves other text as it is', () => {
    expect(indexText('人間は自由')).toBe(' 人間 間は は自 自由 由 ');
    expect(indexText('API文档')).toBe('API 文档 档 ');
    expect(indexText('plain English text')).toBe('plain English text');
    expect(indexText('Hauptstraße')).toBe('Hauptstrasse');
  });

  it('cuts a question into words, drops lone particles, searches each word as its pairs and a short run whole', () => {
    expect(queryTerms('尊厳と権利')).toEqual(['尊厳', '権利', '尊厳と権利']);
    expect(queryTerms('API文档')).toEqual(['api', '文档']);
    expect(ftsQuery(['生まれ', '人', 'muller'])).toBe('"生ま まれ" OR "人"* OR "muller"');
  });

  it('finds Japanese and Chinese documents by words inside their runs', async () => {
    const engine = await indexed({
      'udhr-ja.md': `# 世界人権宣言\n\n${UDHR_JA}`,
      'exceljs-zh.md': EXCELJS_ZH,
      'english.md': '# Notes\n\nNothing here but English words about dignity and rights.',
    });
    expect(await found(engine, '尊厳と権利')).toEqual(['世界人権宣言']);
    expect(await found(engine, '理性')).toEqual(['世界人権宣言']);
    expect(await found(engine, '合并单元格')).toEqual(['exceljs-zh.md']);
    // One character is the start of the tokens that hold it, the run's last one included.
    expect(await found(engine, '值')).toEqual(['exceljs-zh.md']);
    // Shown by the section that matched.
    const hit = (await engine.search('工作表的某些功能', { mode: 'keyword' })).hits[0];
    expect(hit?.body).toContain('工作表支持属性存储桶');
  });

  it('finds German words with or without their umlauts and ß', async () => {
    const engine = await indexed({ 'umzug.md': GERMAN, 'other.md': '# Other\n\nMuller is not here.' });
    expect(await found(engine, 'Hauptstrasse')).toEqual(['Umzug']);
    expect(await found(engine, 'Hauptstraße')).toEqual(['Umzug']);
    expect(await found(engine, 'Moebel Mobel')).toEqual(['Umzug']);
    expect(await found(engine, 'grössere')).toEqual(['Umzug']);
  });

  it('takes a changed file out of the index with the text it was indexed with', async () => {
    const engine = await indexed({ 'udhr-ja.md': `# 世界人権宣言\n\n${UDHR_JA}` });
    const count = (q: string) =>
      (
        engine.db.prepare('SELECT count(*) AS n FROM items_fts WHERE items_fts MATCH ?').get(q) as {
          n: number;
        }
      ).n;
    expect(count('"尊厳"')).toBeGreaterThan(0);
    ws.write('udhr-ja.md', '# 世界人権宣言\n\n第一条は削除されました。');
    await engine.add([`${ws.files}/udhr-ja.md`]);
    await engine.index();
    expect(count('"尊厳"')).toBe(0);
    expect(await found(engine, '削除')).toEqual(['世界人権宣言']);
  });

  it('re-indexes rows that an earlier version indexed as written (migration 0024)', async () => {
    const engine = await indexed({ 'exceljs-zh.md': EXCELJS_ZH });
    // As before: the text itself in the index.
    respellIndex(engine, (t) => t);
    expect(await found(engine, '合并单元格')).toEqual([]);
    // 0024 spells rows as it did then; 0026 (below) does the rest.
    engine.db.transaction(() => migrateScripts(engine.db))();
    expect(await found(engine, '合并单元格')).toEqual(['exceljs-zh.md']);
  });

  describe('presentation and width forms', () => {
    // What pdf.js gives for Arabic set in a CID font: presentation forms, not letters.
    const ARABIC_PDF = 'اﻟﻌﺮﺑﻴﺔ اﻟﺨﻄﻮط اﻧﻮاع';
    const FULLWIDTH = '# 経費精算\n\nＣＳＶファイルで月末までに提出。ｶﾞｲﾄﾞを参照。ﬁnal ２０２４年';

    it('reads them as NFKC makes them, and leaves other text as it is', () => {
      expect(compatFolded(ARABIC_PDF)).toBe('العربية الخطوط انواع');
      expect(compatFolded('ＣＳＶ ｶﾞｲﾄﾞ ﬁnal ２０２４')).toBe('CSV ガイド final 2024');
      expect(compatFolded('Plain ½ text')).toBe('Plain ½ text');
      expect(queryTerms('ＣＳＶ')).toEqual(['csv']);
    });

    it('finds Arabic from a PDF by its letters, and fullwidth Latin by plain letters', async () => {
      const engine = await indexed({
        'arabic.md': `# خطوط\n\n${ARABIC_PDF}`,
        'keihi.md': FULLWIDTH,
        'other.md': '# Other\n\nNothing.',
      });
      expect(await found(engine, 'الخطوط')).toEqual(['خطوط']);
      expect(await found(engine, 'csv')).toEqual(['経費精算']);
      expect(await found(engine, 'ガイド')).toEqual(['経費精算']);
      expect(await found(engine, 'final 2024')).toEqual(['経費精算']);
    });

    it('re-indexes rows indexed before as written, taking each out as it was (migration 0026)', async () => {
      const engine = await indexed({ 'keihi.md': FULLWIDTH });
      // As 0024 left them: pairs and ß, no folding of these forms.
      respellIndex(engine, indexTextBefore0026);
      expect(await found(engine, 'csv')).toEqual([]);
      engine.db.transaction(() => migrateCompat(engine.db))();
      expect(await found(engine, 'csv')).toEqual(['経費精算']);
      engine.db.exec("INSERT INTO items_fts (items_fts, rank) VALUES ('integrity-check', 0)");
      // A changed file is then taken out with the text it was put back with.
      ws.write('keihi.md', '# 経費精算\n\n廃止されました。');
      await engine.add([`${ws.files}/keihi.md`]);
      await engine.index();
      expect(await found(engine, 'csv')).toEqual([]);
    });
  });
});
