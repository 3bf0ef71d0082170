import { afterAll, describe, expect, it } from 'vitest';
import { encodeLegacy } from '../../../test/ingest-helpers/legacy-encode.ts';
import { expectReadBack } from '../../../test/ingest-helpers/read-back.ts';
import { closeIngestWorkers, detectFormat, extractFile, readLocator, readWholeText } from './index.ts';

afterAll(() => closeIngestWorkers());

const utf8 = (s: string) => new TextEncoder().encode(s);

const PAGE = `<!DOCTYPE html>
<html><head><title>Team Wiki &amp; Notes</title>
<style>body { color: red } .secret { display: none }</style>
<script>var leaked = "scriptword";</script></head>
<body>
<header><a href="/">Home</a> <a href="/login">Log in</a></header>
<nav><ul><li><a href="/a">Navlink one</a></li></ul></nav>
<main>
<h1>Onboarding</h1>
<p>Read the <a href="https://example.com/guide">setup guide</a> first &mdash; it is short.</p>
<h2>Accounts</h2>
<ul><li>Email</li><li>Chat</li></ul>
<table><tr><th>Tool</th><th>Owner</th></tr><tr><td>Wiki</td><td>Ann</td></tr></table>
<div hidden>hiddenword</div>
<form><input name="q"><button>Searchbutton</button></form>
</main>
<aside>Related: asideword</aside>
<footer>Copyright footerword</footer>
</body></html>`;

describe('html', () => {
  it('[F6][F7] reads the main content as text, headings as the section path', async () => {
    const bytes = utf8(PAGE);
    const ex = await extractFile(bytes, 'html', 'wiki.html');
    expect(ex.title).toBe('Team Wiki & Notes');
    expect(ex.health).toEqual(["only the page's <main> content was read", 'tables flattened to text (1)']);
    expect(ex.chunks.map((c) => [c.label, c.body])).toEqual([
      ['Team Wiki & Notes > Onboarding', 'Onboarding\n\nRead the setup guide first \u2014 it is short.'],
      [
        'Team Wiki & Notes > Onboarding > Accounts',
        'Accounts\n\nEmail\n\nChat\n\nTool | Owner\n\nWiki | Ann',
      ],
    ]);
    const whole = await readWholeText(bytes, 'html');
    for (const word of [
      'scriptword',
      'Navlink',
      'Log in',
      'hiddenword',
      'Searchbutton',
      'asideword',
      'footerword',
      'color',
    ])
      expect(whole).not.toContain(word);
    expect(ex.chunks[1]!.locator).toMatchObject({ type: 'html', lineStart: 5 });
    await expectReadBack(bytes, 'html', ex);
  });

  it('[F6] without <main> reads the whole body minus chrome; no headings gives flat chunks', async () => {
    const bytes = utf8('<p>Alpha <b>bold</b><br>beta</p><nav>skip</nav><p>Gamma</p>');
    const ex = await extractFile(bytes, 'html', 'frag.htm');
    expect(ex.title).toBeNull();
    expect(ex.chunks.map((c) => [c.key, c.label, c.body])).toEqual([
      ['#1', 'frag.htm', 'Alpha bold\nbeta\n\nGamma'],
    ]);
    await expectReadBack(bytes, 'html', ex);
  });

  it('script-heavy and broken HTML: scripts dropped, unclosed tags tolerated', async () => {
    const scripts = '<script>'.concat('x();'.repeat(50_000), '</script>').repeat(20);
    const bytes = utf8(`<html><body>${scripts}<div><p>Kept <i>text<div>inner</body>`);
    const ex = await extractFile(bytes, 'html', 's.html');
    expect(ex.chunks.map((c) => c.body)).toEqual(['Kept text\n\ninner']);
    await expectReadBack(bytes, 'html', ex);
    const empty = await extractFile(utf8('<script>only()</script><style>a{}</style>'), 'html', 'e.html');
    expect(empty.chunks).toEqual([]);
    expect(empty.health).toEqual(['no text in the page body']);
  });

  it('refuses a locator outside the page text or of another type', async () => {
    const bytes = utf8('<p>short</p>');
    await expect(
      readLocator(bytes, 'html', { type: 'html', charStart: 0, charEnd: 99, lineStart: 1, lineEnd: 1 }),
    ).rejects.toMatchObject({ code: 'stale' });
    await expect(
      readLocator(bytes, 'html', { type: 'docx', charStart: 0, charEnd: 1, lineStart: 1, lineEnd: 1 }),
    ).rejects.toMatchObject({ code: 'validation-failed' });
  });

  it('[F5] detection by name and by content', () => {
    expect(detectFormat(utf8('<p>x</p>'), 'a.html')).toEqual({ ok: true, format: 'html', health: [] });
    expect(detectFormat(utf8('<p>x</p>'), 'a.HTM')).toEqual({ ok: true, format: 'html', health: [] });
    expect(detectFormat(utf8('\ufeff<!-- saved -->\n<!doctype html><p>x</p>'), 'page.txt')).toEqual({
      ok: true,
      format: 'html',
      health: ['named .txt but the content is HTML'],
    });
    expect(detectFormat(utf8('<html lang="en"><p>x</p>'), 'page')).toMatchObject({
      ok: true,
      format: 'html',
    });
    expect(detectFormat(utf8('hello'), 'README')).toMatchObject({ ok: false });
  });
});

describe('[F25] a page in the character set it declares', () => {
  const page = (head: string, body: string) => `<html><head>${head}</head><body><p>${body}</p></body></html>`;

  it('reads a <meta charset> page in that encoding, and reads its passages back', async () => {
    const polish = 'Zażółć gęślą jaźń';
    const bytes = encodeLegacy(page('<meta charset="ISO-8859-2">', polish), 'iso-8859-2');
    const ex = await extractFile(bytes, 'html', 'pl.html');
    expect(ex.chunks.map((c) => c.body)).toEqual([polish]);
    expect(ex.health).toEqual(['not UTF-8: decoded as ISO-8859-2, as the page declares']);
    await expectReadBack(bytes, 'html', ex);
  });

  it('follows the charset of a Content-Type <meta http-equiv>', async () => {
    const greek = 'Καλημέρα κόσμε';
    const head = '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=windows-1253">';
    const ex = await extractFile(encodeLegacy(page(head, greek), 'windows-1253'), 'html', 'el.htm');
    expect(ex.chunks.map((c) => c.body)).toEqual([greek]);
    expect(ex.health).toEqual(['not UTF-8: decoded as Windows-1253, as the page declares']);
  });

  it('names a declared set as a guess would name it when it is one a guess can find', async () => {
    const russian = 'Привет, мир';
    const ex = await extractFile(
      encodeLegacy(page('<meta charset="cp1251">', russian), 'windows-1251'),
      'html',
      'ru.html',
    );
    expect(ex.chunks.map((c) => c.body)).toEqual([russian]);
    expect(ex.health).toEqual(['not UTF-8: decoded as Windows-1251 (Cyrillic), as the page declares']);
    const japanese = 'こんにちは世界';
    const sjis = encodeLegacy(page('<meta charset="Shift_JIS">', japanese), 'shift_jis');
    expect((await extractFile(sjis, 'html', 'ja.html')).health).toEqual([
      'not UTF-8: decoded as Shift JIS (Japanese), as the page declares',
    ]);
  });

  it('reads UTF-8 as UTF-8 whatever the page declares', async () => {
    const ex = await extractFile(utf8(page('<meta charset="iso-8859-1">', 'Grüße')), 'html', 'de.html');
    expect(ex.chunks.map((c) => c.body)).toEqual(['Grüße']);
    expect(ex.health).toEqual([]);
  });

  it('guesses as before when the declared set is unknown, commented out or past the first 1024 bytes', async () => {
    const spanish = 'señor café';
    const unknown = await extractFile(
      encodeLegacy(page('<meta charset="x-bogus">', spanish), 'windows-1252'),
      'html',
      'a.html',
    );
    expect(unknown.chunks.map((c) => c.body)).toEqual([spanish]);
    expect(unknown.health).toEqual([
      'the page declares the character set "x-bogus", which is not known',
      'not UTF-8: decoded as Windows-1252',
    ]);
    // In ISO-8859-2, ñ's byte is ń: following these declarations would misread the page.
    const commented = encodeLegacy(page('<!-- <meta charset="iso-8859-2"> -->', spanish), 'windows-1252');
    const late = encodeLegacy(
      page(`<title>${'x'.repeat(1100)}</title><meta charset="iso-8859-2">`, spanish),
      'windows-1252',
    );
    for (const bytes of [commented, late]) {
      const ex = await extractFile(bytes, 'html', 'b.html');
      expect(ex.chunks.map((c) => c.body)).toEqual([spanish]);
      expect(ex.health).toEqual(['not UTF-8: decoded as Windows-1252']);
    }
  });
});
