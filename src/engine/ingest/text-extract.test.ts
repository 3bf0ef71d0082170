import { afterAll, describe, expect, it } from 'vitest';
import { encodeLegacy } from '../../../test/ingest-helpers/legacy-encode.ts';
import { expectReadBack } from '../../../test/ingest-helpers/read-back.ts';
import { CP500 } from './ebcdic.ts';
import { closeIngestWorkers, extractFile, readLocator } from './index.ts';

afterAll(() => closeIngestWorkers());

const utf8 = (s: string) => new TextEncoder().encode(s);

function utf16(s: string, littleEndian: boolean, bom: boolean): Uint8Array {
  const out = new Uint8Array((s.length + (bom ? 1 : 0)) * 2);
  const dv = new DataView(out.buffer);
  const units = bom ? `\ufeff${s}` : s;
  for (let i = 0; i < units.length; i++) dv.setUint16(i * 2, units.charCodeAt(i), littleEndian);
  return out;
}

function utf32(s: string, littleEndian: boolean): Uint8Array {
  const cps = [0xfeff, ...[...s].map((c) => c.codePointAt(0)!)];
  const out = new Uint8Array(cps.length * 4);
  const dv = new DataView(out.buffer);
  for (const [i, cp] of cps.entries()) dv.setUint32(i * 4, cp, littleEndian);
  return out;
}

/** Prose with non-ASCII and astral characters, long enough to split. */
const PROSE = Array.from(
  { length: 40 },
  (_, i) => `Paragraph ${i}: naïve café — “quotes” and emoji 😀 ${'lorem ipsum dolor '.repeat(4)}`,
).join('\n\n');

const encodings: [string, Uint8Array, string[]][] = [
  ['UTF-8', utf8(PROSE), []],
  ['UTF-8 with BOM', Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(PROSE)]), []],
  ['UTF-16LE with BOM', utf16(PROSE, true, true), ['encoding: utf-16le']],
  ['UTF-16BE with BOM', utf16(PROSE, false, true), ['encoding: utf-16be']],
  ['UTF-16LE without BOM', utf16(PROSE, true, false), ['encoding: utf-16le']],
  ['UTF-16BE without BOM', utf16(PROSE, false, false), ['encoding: utf-16be']],
  ['UTF-32LE with BOM', utf32(PROSE, true), ['encoding: utf-32le']],
  ['UTF-32BE with BOM', utf32(PROSE, false), ['encoding: utf-32be']],
];

describe('text decoding', () => {
  for (const [name, bytes, health] of encodings) {
    it(`decodes ${name} and reads every chunk back from its byte range`, async () => {
      const ex = await extractFile(bytes, 'txt', 'prose.txt');
      expect(ex.health).toEqual(health);
      expect(ex.chunks.length).toBeGreaterThan(3);
      expect(ex.chunks[0]!.body.startsWith('Paragraph 0: naïve café')).toBe(true);
      expect(ex.chunks.some((c) => c.body.includes('😀'))).toBe(true);
      await expectReadBack(bytes, 'txt', ex);
    });
  }

  it('falls back to Windows-1252 for invalid UTF-8, with a health note', async () => {
    const bytes = Uint8Array.from([
      ...utf8('Caf'),
      0xe9,
      0x20,
      0x93,
      ...utf8('quoted'),
      0x94,
      ...utf8('\nline two'),
    ]);
    const ex = await extractFile(bytes, 'txt', 'cp.txt');
    expect(ex.health).toEqual(['not UTF-8: decoded as Windows-1252']);
    expect(ex.chunks[0]!.body).toBe('Café “quoted”\nline two');
    expect(ex.chunks[0]!.locator).toEqual({
      type: 'text',
      byteStart: 0,
      byteEnd: bytes.length,
      lineStart: 1,
      lineEnd: 2,
    });
    await expectReadBack(bytes, 'txt', ex);
  });

  describe('[F24] UTF-8 cut in the middle of its last character', () => {
    const text = `${PROSE}\nLast words: naïve`;
    const whole = utf8(`${text}😀`);
    for (const cut of [1, 2, 3]) {
      it(`reads a file that ends with ${cut} of a 4-byte character's bytes as UTF-8, and reads it back`, async () => {
        const bytes = whole.subarray(0, whole.length - 4 + cut);
        const ex = await extractFile(bytes, 'txt', 'cut.txt');
        const what = cut === 1 ? 'its last byte is' : `its last ${cut} bytes are`;
        expect(ex.health).toEqual([`ends in the middle of a character: ${what} not read`]);
        expect(ex.chunks.at(-1)!.body.endsWith('Last words: naïve')).toBe(true);
        expect(ex.chunks[0]!.body.startsWith('Paragraph 0: naïve café')).toBe(true);
        await expectReadBack(bytes, 'txt', ex);
      });
    }

    it('keeps a Windows-1252 file ending in é as Windows-1252 (é is also a UTF-8 lead byte)', async () => {
      const bytes = Uint8Array.from([...utf8('We met at the caf'), 0xe9]);
      const ex = await extractFile(bytes, 'txt', 'cafe.txt');
      expect(ex.health).toEqual(['not UTF-8: decoded as Windows-1252']);
      expect(ex.chunks[0]!.body).toBe('We met at the café');
    });

    it('a Markdown file cut mid-character keeps its headings and reads back', async () => {
      const md = utf8('# Notes\n\n## Größe\n\nDie Größe ist 5 m²\n\n## Ende\n\nSchluss €');
      const bytes = md.subarray(0, md.length - 1);
      const ex = await extractFile(bytes, 'md', 'notes.md');
      expect(ex.health).toEqual(['ends in the middle of a character: its last 2 bytes are not read']);
      expect(ex.chunks.map((c) => c.label)).toEqual(['Notes', 'Notes > Größe', 'Notes > Ende']);
      expect(ex.chunks.at(-1)!.body.trimEnd().endsWith('Schluss')).toBe(true);
      await expectReadBack(bytes, 'md', ex);
    });
  });

  describe('[F22] Cyrillic one-byte encodings', () => {
    /** Encodes with a one-byte encoding by reversing what TextDecoder reads each byte as. */
    function legacy(text: string, label: string): Uint8Array {
      const decoder = new TextDecoder(label);
      const byChar = new Map<string, number>();
      for (let b = 0; b < 256; b++) byChar.set(decoder.decode(Uint8Array.of(b)), b);
      return Uint8Array.from([...text].map((c) => byChar.get(c) ?? 0x3f));
    }
    const russian =
      '# Правила отпуска\n\nКаждый сотрудник получает двадцать дней оплачиваемого отпуска в году.\n' +
      'Заявление подаётся руководителю за две недели, по адресу hr@example.com.\n';
    for (const [label, name] of [
      ['windows-1251', 'Windows-1251 (Cyrillic)'],
      ['koi8-r', 'KOI8-R (Cyrillic)'],
      ['ibm866', 'DOS 866 (Cyrillic)'],
    ] as const) {
      it(`reads Russian in ${label}, and reads every chunk back from its bytes`, async () => {
        const bytes = legacy(russian.replace('ё', 'е'), label);
        const ex = await extractFile(bytes, 'md', `ru-${label}.md`);
        expect(ex.health).toEqual([`not UTF-8: decoded as ${name}`]);
        expect(ex.chunks.map((c) => c.body).join('\n')).toContain('двадцать дней оплачиваемого отпуска');
        expect(ex.chunks[0]?.label).toContain('Правила отпуска');
        await expectReadBack(bytes, 'md', ex);
      });
    }

    it('reads EBCDIC (code page 500) text from a mainframe, and reads it back', async () => {
      const english = '         Hardware and services\r\n\r\n  Support: call 555-0100, or write to us.\r\n';
      const byChar = new Map([...CP500].map((cp, b) => [String.fromCharCode(cp), b]));
      const bytes = Uint8Array.from([...english].map((c) => byChar.get(c) ?? 0x6f));
      const ex = await extractFile(bytes, 'txt', 'mainframe.txt');
      expect(ex.health).toEqual(['not UTF-8: decoded as EBCDIC 500 (mainframe)']);
      expect(ex.chunks.map((c) => c.body).join('\n')).toContain('Support: call 555-0100, or write to us.');
      await expectReadBack(bytes, 'txt', ex);
    });

    it('keeps Western text in Windows-1252: accented letters among plain ones, guillemets', async () => {
      const german =
        'Über die Straße gehen wir «gemeinsam» - können wir? Ça va, déjà vu, señor, fiancée.\näöüß\n';
      const bytes = legacy(german, 'windows-1252');
      const ex = await extractFile(bytes, 'txt', 'de.txt');
      expect(ex.health).toEqual(['not UTF-8: decoded as Windows-1252']);
      expect(ex.chunks[0]?.body).toBe(german.trimEnd());
    });
  });

  describe('[F23] Japanese, Chinese and Korean legacy encodings', () => {
    const cases = [
      [
        'shift_jis',
        'Shift JIS (Japanese)',
        '# 休暇規程\n\n社員は毎年二十日間の有給休暇を取得できます。申請は二週間前までに上司へ提出してください。ﾃｽﾄ\n',
      ],
      [
        'euc-jp',
        'EUC-JP (Japanese)',
        '# 休暇規程\n\n社員は毎年二十日間の有給休暇を取得できます。申請は二週間前までに上司へ提出してください。\n',
      ],
      [
        'gbk',
        'GBK/GB18030 (Chinese)',
        '# 休假制度\n\n每位员工每年享有二十天带薪年假。请在两周前向主管提交申请。报销在月底截止。\n',
      ],
      [
        'big5',
        'Big5 (Chinese)',
        '# 休假制度\n\n每位員工每年享有二十天帶薪年假。請在兩週前向主管提交申請。報銷在月底截止。\n',
      ],
      [
        'euc-kr',
        'EUC-KR (Korean)',
        '# 휴가 규정\n\n모든 직원은 매년 이십일의 유급 휴가를 받습니다. 신청은 이주 전까지 상사에게 제출하세요.\n',
      ],
    ] as const;
    for (const [label, name, text] of cases) {
      it(`reads Markdown in ${label} and reads every chunk back from its bytes`, async () => {
        const body = Array.from({ length: 60 }, () => text.split('\n\n')[1]).join('\n\n');
        const bytes = encodeLegacy(`${text.split('\n\n')[0]}\n\n${body}`, label);
        const ex = await extractFile(bytes, 'md', `${label}.md`);
        expect(ex.health).toEqual([`not UTF-8: decoded as ${name}`]);
        expect(ex.chunks.length).toBeGreaterThan(1);
        expect(ex.chunks[0]?.label).toContain(text.split('\n')[0]?.slice(2));
        expect(ex.chunks.map((c) => c.body).join('\n')).toContain(text.split('\n\n')[1]?.trim().slice(0, 20));
        await expectReadBack(bytes, 'md', ex);
      });
    }
  });

  it('offsets include the BOM', async () => {
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('\n\nhé\n')]);
    const ex = await extractFile(bytes, 'txt', 'b.txt');
    expect(ex.chunks[0]!.locator).toEqual({
      type: 'text',
      byteStart: 5,
      byteEnd: 8,
      lineStart: 3,
      lineEnd: 3,
    });
  });
});

describe('txt: flat path', () => {
  it('packs paragraphs into windows with ordinal keys', async () => {
    const text = Array.from({ length: 30 }, (_, i) => `Para ${i}. ${'text '.repeat(20)}`).join('\n\n');
    const ex = await extractFile(utf8(text), 'txt', 'notes.txt');
    expect(ex.chunks.map((c) => c.key)).toEqual(ex.chunks.map((_, i) => `#${i + 1}`));
    expect(ex.chunks.every((c) => c.label === 'notes.txt' && c.body.length <= 1000)).toBe(true);
    // Windows end at paragraph breaks, and the next one repeats the last 100 characters.
    expect(ex.chunks[0]!.body.endsWith('text')).toBe(true);
    expect(ex.chunks[1]!.body.startsWith(ex.chunks[0]!.body.slice(-100).trimStart())).toBe(true);
    await expectReadBack(utf8(text), 'txt', ex);
  });

  it('gives no chunks for a blank file, with a note', async () => {
    const ex = await extractFile(utf8('\n \n\t\n'), 'txt', 'blank.txt');
    expect(ex.chunks).toEqual([]);
    expect(ex.health).toEqual(['no text (the file is blank)']);
  });

  it('a bare-CR file is one line', async () => {
    const ex = await extractFile(utf8('a\rb\rc'), 'txt', 'cr.txt');
    expect(ex.chunks[0]!.locator).toMatchObject({ lineStart: 1, lineEnd: 1 });
  });
});

const HANDBOOK = `---
title: Handbook
date: 2024-03-01
---
Welcome text before any heading.

# Benefits
Intro to benefits.

## Vacation
${Array.from({ length: 30 }, (_, i) => `Rule ${i}: employees get days off, carried over per policy ${i}.`).join('\n\n')}

\`\`\`md
# not a heading
\`\`\`

## Vacation
A second section with the same heading.

Setext title
============
body
`;

describe('md: structured path', () => {
  const bytes = utf8(HANDBOOK);

  it('uses front matter, breadcrumbs, preamble and split keys', async () => {
    const ex = await extractFile(bytes, 'md', 'handbook.md');
    expect(ex.title).toBe('Handbook');
    expect(ex.occurredAt).toBe('2024-03-01T00:00:00.000Z');
    const keys = ex.chunks.map((c) => c.key);
    expect(keys[0]).toBe('(preamble)');
    expect(ex.chunks[0]!.body).toBe('Welcome text before any heading.');
    expect(ex.chunks[0]!.label).toBe('Handbook');
    expect(keys).toContain('Benefits');
    expect(keys).toContain('Benefits > Vacation');
    expect(keys).toContain('Benefits > Vacation#2');
    expect(keys).toContain('Benefits > Vacation (2)');
    expect(keys).toContain('Setext title');
    expect(keys.some((k) => k.includes('not a heading'))).toBe(false);
    const vacation = ex.chunks.find((c) => c.key === 'Benefits > Vacation')!;
    expect(vacation.label).toBe('Handbook > Benefits > Vacation');
    expect(vacation.body.startsWith('## Vacation\nRule 0')).toBe(true);
    const part2 = ex.chunks.find((c) => c.key === 'Benefits > Vacation#2')!;
    expect(part2.label).toBe('Handbook > Benefits > Vacation');
    expect(part2.body.startsWith(vacation.body.slice(-100).trimStart())).toBe(true);
    expect(ex.chunks.every((c) => c.body.length <= 1000)).toBe(true);
    await expectReadBack(bytes, 'md', ex);
  });

  it('keys are stable across re-extraction of the same bytes', async () => {
    const a = await extractFile(bytes, 'md', 'handbook.md');
    const b = await extractFile(new Uint8Array(bytes), 'md', 'handbook.md');
    expect(b.chunks).toEqual(a.chunks);
  });

  it('uses the file label when there is no title; the line numbers are right', async () => {
    const md = utf8('# A\none\n\n# B\ntwo\nthree\n');
    const ex = await extractFile(md, 'md', 'notes.md');
    expect(ex.chunks.map((c) => [c.key, c.label, c.locator])).toEqual([
      ['A', 'notes.md > A', { type: 'text', byteStart: 0, byteEnd: 7, lineStart: 1, lineEnd: 2 }],
      ['B', 'notes.md > B', { type: 'text', byteStart: 9, byteEnd: 22, lineStart: 4, lineEnd: 6 }],
    ]);
  });

  it('refuses a locator outside the text', async () => {
    await expect(
      readLocator(utf8('abc'), 'txt', { type: 'text', byteStart: 2, byteEnd: 10, lineStart: 1, lineEnd: 1 }),
    ).rejects.toMatchObject({ code: 'stale' });
  });
});

describe('hostile and large text', () => {
  it('chunks a 10 MB single line quickly, and reads it back', async () => {
    const line = 'x'.repeat(10 * 1024 * 1024);
    const bytes = utf8(`# ${line}`);
    const t0 = performance.now();
    const ex = await extractFile(bytes, 'md', 'line.md');
    const ms = performance.now() - t0;
    expect(ms).toBeLessThan(2000);
    expect(ex.chunks.length).toBeGreaterThan(10_000);
    for (const c of [ex.chunks[0]!, ex.chunks[5000]!, ex.chunks.at(-1)!]) {
      expect(await readLocator(bytes, 'md', c.locator)).toBe(c.body);
    }
  });

  it('indexes a 3 MB novel at well over 5 MB/s', async () => {
    const para = 'Prince Andrew looked at the sky — “what is this?” he thought, naïvely. ';
    const novel = Array.from(
      { length: 10_000 },
      (_, i) => `${i % 40 === 0 ? `\n## Chapter ${i}\n` : ''}${para.repeat(4)}`,
    ).join('\n\n');
    const bytes = utf8(novel);
    expect(bytes.length).toBeGreaterThan(3_000_000);
    const t0 = performance.now();
    const ex = await extractFile(bytes, 'md', 'novel.md');
    const seconds = (performance.now() - t0) / 1000;
    expect(bytes.length / 1e6 / seconds).toBeGreaterThan(5);
    await expectReadBack(bytes, 'md', ex);
    const flat = await extractFile(bytes, 'txt', 'novel.txt');
    await expectReadBack(bytes, 'txt', flat);
  });
});
