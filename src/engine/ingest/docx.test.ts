import { afterAll, describe, expect, it } from 'vitest';
import { buildDocx, patchDeclaredSize } from '../../../test/ingest-helpers/build-office.ts';
import { expectReadBack } from '../../../test/ingest-helpers/read-back.ts';
import { htmlToCanonical } from './html-blocks.ts';
import { closeIngestWorkers, extractFile } from './index.ts';

afterAll(() => closeIngestWorkers());

const rules = Array.from(
  { length: 25 },
  (_, i) => `Rule ${i}: vacation days accrue monthly & carry over <once>.`,
);

describe('docx', () => {
  it('structured path: headings give breadcrumbs, preamble and split sections', async () => {
    const bytes = await buildDocx([
      'Company handbook, preamble.',
      { heading: 1, text: 'Benefits' },
      'Benefits intro.',
      { heading: 2, text: 'Vacation' },
      ...rules,
      { heading: 2, text: 'Pay' },
      {
        table: [
          ['Grade', 'Salary'],
          ['A', '100'],
          ['B', ''],
        ],
      },
      { heading: 1, text: 'Conduct' },
      'Be kind.',
    ]);
    const ex = await extractFile(bytes, 'docx', 'handbook.docx');
    const keys = ex.chunks.map((c) => c.key);
    expect(keys).toEqual([
      '(preamble)',
      'Benefits',
      'Benefits > Vacation',
      'Benefits > Vacation#2',
      ...keys.slice(4, -2),
      'Benefits > Pay',
      'Conduct',
    ]);
    expect(ex.chunks[0]!.body).toBe('Company handbook, preamble.');
    const vacation = ex.chunks[2]!;
    expect(vacation.label).toBe('handbook.docx > Benefits > Vacation');
    expect(
      vacation.body.startsWith('Vacation\n\nRule 0: vacation days accrue monthly & carry over <once>.'),
    ).toBe(true);
    expect(ex.chunks[3]!.body.startsWith(vacation.body.slice(-100).trimStart())).toBe(true);
    expect(ex.chunks.find((c) => c.key === 'Benefits > Pay')!.body).toBe(
      'Pay\n\nGrade | Salary\n\nA | 100\n\nB |',
    );
    expect(ex.health).toEqual(['tables flattened to text (1)']);
    await expectReadBack(bytes, 'docx', ex);
    const again = await extractFile(new Uint8Array(bytes), 'docx', 'handbook.docx');
    expect(again.chunks).toEqual(ex.chunks);
  });

  it('flat path for a document without headings', async () => {
    const bytes = await buildDocx(rules.concat(rules));
    const ex = await extractFile(bytes, 'docx', 'memo.docx');
    expect(ex.chunks.map((c) => c.key)).toEqual(ex.chunks.map((_, i) => `#${i + 1}`));
    expect(ex.chunks.length).toBeGreaterThan(2);
    expect(ex.chunks[0]!.locator).toMatchObject({ type: 'docx', charStart: 0, lineStart: 1 });
    await expectReadBack(bytes, 'docx', ex);
  });

  it('[Z1] refuses a zip bomb from its directory, before inflating anything', async () => {
    const bytes = patchDeclaredSize(await buildDocx(['x']), 'word/document.xml', 0xf0000000);
    await expect(extractFile(bytes, 'docx', 'bomb.docx')).rejects.toMatchObject({
      code: 'refused',
      message: 'looks like a zip bomb (expands to 3840 MB)',
    });
  });

  it('refuses a corrupt document with a reason', async () => {
    const bytes = (await buildDocx(['x'])).slice(0, 200);
    await expect(extractFile(bytes, 'docx', 'cut.docx')).rejects.toMatchObject({
      message: expect.stringMatching(/^corrupt or unreadable Word document: /),
    });
  });

  it('canonical text: entities decoded, list items and cells as blocks', () => {
    const canon = htmlToCanonical(
      '<h1>T&amp;C</h1><ul><li>one<ul><li>two</li></ul></li></ul><p>a<br />b</p><table><tr><td><p>x</p></td><td>y &lt;z&gt;</td></tr></table>',
    );
    expect(canon.text).toBe('T&C\n\none\n\ntwo\n\na\nb\n\nx | y <z>');
    expect(canon.blocks.map((b) => b.level)).toEqual([1, 0, 0, 0, 0]);
  });
  it('[F16] page headers and footers are read once each, after the body, without field codes', async () => {
    const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
    const part = (tag: string, inner: string) =>
      `<?xml version="1.0" encoding="UTF-8"?><w:${tag} xmlns:w="${W}">${inner}</w:${tag}>`;
    const p = (t: string) => `<w:p><w:r><w:t>${t}</w:t></w:r></w:p>`;
    const page = '<w:p><w:r><w:t>Page </w:t></w:r><w:r><w:instrText> PAGE </w:instrText></w:r></w:p>';
    const merged =
      '<w:tbl><w:tr><w:tc><w:tcPr><w:vMerge w:val="restart"/></w:tcPr>' +
      p('Shown cell') +
      '</w:tc></w:tr><w:tr><w:tc><w:tcPr><w:vMerge/></w:tcPr>' +
      p('Hidden cell') +
      '</w:tc></w:tr></w:tbl>';
    const bytes = await buildDocx(['Body text about expenses.'], undefined, {
      'word/header1.xml': part('hdr', p('Acme Corp &amp; Partners — Confidential')),
      'word/header2.xml': part('hdr', p('Acme Corp &amp; Partners — Confidential')),
      'word/footer1.xml': part('ftr', page + merged),
      'word/footer2.xml': part('ftr', '<w:p><w:r><w:t>broken'),
    });
    const ex = await extractFile(bytes, 'docx', 'memo.docx');
    expect(ex.chunks.map((c) => [c.key, c.body])).toEqual([
      ['(preamble)', 'Body text about expenses.'],
      ['Page headers', 'Page headers\n\nAcme Corp & Partners — Confidential'],
      ['Page footers', 'Page footers\n\nPage\n\nShown cell'],
    ]);
    expect(ex.health).toContain('1 header or footer parts unreadable, skipped');
    await expectReadBack(bytes, 'docx', ex);
  });

  it('[F19] reads ruby text: the base and its reading, found by either, read back exactly', async () => {
    const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
    const ruby = (base: string, reading: string) =>
      `<w:r><w:rPr><w:sz w:val="22"/></w:rPr><w:ruby><w:rubyPr><w:hps w:val="11"/></w:rubyPr>` +
      `<w:rt><w:r><w:rPr><w:sz w:val="11"/></w:rPr><w:t>${reading}</w:t></w:r></w:rt>` +
      `<w:rubyBase><w:r><w:t>${base}</w:t></w:r></w:rubyBase></w:ruby></w:r>`;
    const body =
      `<w:p>${ruby('東京', 'とうきょう')}<w:r><w:t>に住んでいます。</w:t></w:r></w:p>` +
      `<w:p><w:r><w:t>Plain &amp; simple, then </w:t></w:r>${ruby('漢字', 'かんじ')}</w:p>`;
    const bytes = await buildDocx(['x'], undefined, {
      'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
    });
    const ex = await extractFile(bytes, 'docx', 'ruby.docx');
    const text = ex.chunks.map((c) => c.body).join('\n');
    expect(text).toContain('東京(とうきょう)に住んでいます。');
    expect(text).toContain('Plain & simple, then 漢字(かんじ)');
    await expectReadBack(bytes, 'docx', ex);
  });

  it('[F21] reads embedded HTML and text parts where they stand, and skips the rest', async () => {
    const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
    const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    const p = (t: string) => `<w:p><w:r><w:t>${t}</w:t></w:r></w:p>`;
    const alt = (id: string) => `<w:altChunk r:id="${id}"/>`;
    const body =
      p('Before the page.') +
      alt('page') +
      p('Between.') +
      alt('notes') +
      alt('web') +
      alt('gone') +
      alt('nested') +
      `<w:tbl><w:tr><w:tc>${alt('cell')}</w:tc></w:tr></w:tbl>` +
      p('After.');
    const rel = (id: string, target: string, extra = '') =>
      `<Relationship Id="${id}" Type="${R}/aFChunk" Target="${target}"${extra}/>`;
    const page =
      '<html><head><title>T</title><style>p{color:red}</style><script>alert("x")</script></head><body>' +
      '<nav>Home | About</nav><h2>Travel policy</h2><p>Book trains &amp; <b>economy</b> flights.</p>' +
      '<img src="https://tracker.example/x.png" onerror="alert(1)"></body></html>';
    const bytes = await buildDocx(['x'], undefined, {
      'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}" xmlns:r="${R}"><w:body>${body}</w:body></w:document>`,
      'word/_rels/document.xml.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${[
        rel('page', '/word/page.html'),
        rel('notes', 'notes.txt'),
        rel('web', 'https://example.com/page.html', ' TargetMode="External"'),
        rel('gone', 'missing.html'),
        rel('nested', 'inner.docx'),
        rel('cell', 'cell.htm'),
      ].join('')}</Relationships>`,
      'word/page.html': page,
      'word/notes.txt': 'First note line\nsecond line <kept as text>\n\nSecond note.',
      'word/inner.docx': 'PK not read',
      'word/cell.htm': '<p>In a cell</p>',
    });
    const ex = await extractFile(bytes, 'docx', 'embedded.docx');
    const text = ex.chunks.map((c) => c.body).join('\n\n');
    expect(text).toContain('Before the page.');
    expect(text.indexOf('Travel policy')).toBeGreaterThan(text.indexOf('Before the page.'));
    expect(text).toContain('Book trains & economy flights.');
    expect(text.indexOf('Between.')).toBeGreaterThan(text.indexOf('Book trains'));
    expect(text).toContain('First note line\nsecond line <kept as text>');
    expect(text.indexOf('Second note.')).toBeLessThan(text.indexOf('After.'));
    expect(text).toContain('In a cell');
    for (const dropped of ['Home | About', 'alert', 'color:red', 'tracker', 'https://example.com'])
      expect(text).not.toContain(dropped);
    // The page's heading makes a section, as a heading of the document would.
    expect(ex.chunks.map((c) => c.key)).toContain('Travel policy');
    expect(ex.health).toEqual([
      'tables flattened to text (1)',
      'embedded HTML or text read (3)',
      '3 embedded parts not read (another document, external, or unreadable)',
    ]);
    await expectReadBack(bytes, 'docx', ex);
  });
});
