import { describe, expect, it } from 'vitest';
import {
  indexablePath,
  MAX_DOCUMENT_BYTES,
  resolveLink,
  SKIP_HIDDEN,
  SKIP_IDENTIFIERS,
  SKIP_NOT_MARKDOWN,
  SKIP_PLUGINS,
  SKIP_RESTRICTED,
  SKIP_SCRATCH,
  SKIP_TOO_LARGE,
} from './paths.ts';

describe('indexablePath: the never-indexed rules', () => {
  it.each([
    ['README.md', null],
    ['docs/Guide.MD', null],
    ['docs/notes.Md', null],
    ['docs/.notes.md', null],
    ['docs/plugins/x.md', null],
    ['docs/scratch/x.md', null],
    ['Plugins/x.md', null],
    ['docs/restricted-ish/x.md', null],
    ['docs/image.png', SKIP_NOT_MARKDOWN],
    ['docs/notes.markdown', SKIP_NOT_MARKDOWN],
    ['docs/md', SKIP_NOT_MARKDOWN],
    ['restricted/a.md', SKIP_RESTRICTED],
    ['a/b/Restricted/c.md', SKIP_RESTRICTED],
    ['a/RESTRICTED/c.md', SKIP_RESTRICTED],
    ['plugins/a.md', SKIP_PLUGINS],
    ['scratch/deep/a.md', SKIP_SCRATCH],
    ['.github/a.md', SKIP_HIDDEN],
    ['docs/.drafts/a.md', SKIP_HIDDEN],
    ['identifiers/ledger.md', SKIP_IDENTIFIERS],
    ['docs/identifiers/ledger.md', SKIP_IDENTIFIERS],
  ])('%s → %s', (path, reason) => {
    expect(indexablePath(path, 100)).toBe(reason);
  });

  it('leaves out files over 2 MiB, and keeps one of exactly 2 MiB', () => {
    expect(indexablePath('big.md', MAX_DOCUMENT_BYTES)).toBeNull();
    expect(indexablePath('big.md', MAX_DOCUMENT_BYTES + 1)).toBe(SKIP_TOO_LARGE);
  });

  it('names the path rule before the size', () => {
    expect(indexablePath('restricted/big.md', MAX_DOCUMENT_BYTES + 1)).toBe(SKIP_RESTRICTED);
    expect(indexablePath('big.txt', MAX_DOCUMENT_BYTES + 1)).toBe(SKIP_NOT_MARKDOWN);
  });
});

describe('resolveLink', () => {
  it.each([
    ['docs/a.md', 'b.md', { path: 'docs/b.md', fragment: null }],
    ['docs/a.md', './sub/b.md#Part', { path: 'docs/sub/b.md', fragment: 'Part' }],
    ['docs/a.md', '../b.md', { path: 'b.md', fragment: null }],
    ['docs/a.md', '/top.md', { path: 'top.md', fragment: null }],
    ['docs/a.md', 'my doc.md', { path: 'docs/my doc.md', fragment: null }],
    ['docs/a.md', 'my%20doc.md?plain=1#x%20y', { path: 'docs/my doc.md', fragment: 'x y' }],
    ['docs/a.md', '#here', { path: 'docs/a.md', fragment: 'here' }],
    ['docs/a.md', 'sub/', { path: 'docs/sub/', fragment: null }],
    ['docs/a.md', '..', { path: '', fragment: null }],
    ['docs/a.md', '100%.md', { path: 'docs/100%.md', fragment: null }],
  ])('from %s, %s', (from, href, want) => {
    expect(resolveLink(from, href)).toEqual(want);
  });

  it.each([
    'https://example.com/a.md',
    'mailto:someone@example.com',
    '//cdn.example.com/a.md',
    'javascript:alert(1)',
    '../../outside.md',
  ])('cannot follow %s', (href) => {
    expect(resolveLink('docs/a.md', href)).toBeNull();
  });
});
