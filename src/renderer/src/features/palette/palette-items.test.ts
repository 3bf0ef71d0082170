import { describe, expect, it } from 'vitest';
import { excerpt, filterCommands, type PaletteItem } from './palette-items.ts';

const cmd = (label: string, keywords?: string): PaletteItem => ({
  id: label,
  group: 'Commands',
  label,
  keywords,
  run: () => {},
});

describe('filterCommands', () => {
  const commands = [
    cmd('Go to Chat'),
    cmd('Index all files', 'reindex'),
    cmd('Watch a folder…'),
    cmd('Go to Files'),
  ];

  it('shows every command for an empty query', () => {
    expect(filterCommands(commands, '  ')).toHaveLength(4);
  });

  it('matches every word, in labels and keywords', () => {
    expect(filterCommands(commands, 'go files').map((c) => c.label)).toEqual(['Go to Files']);
    expect(filterCommands(commands, 'reindex').map((c) => c.label)).toEqual(['Index all files']);
    expect(filterCommands(commands, 'files').map((c) => c.label)).toEqual(['Index all files', 'Go to Files']);
  });

  it('puts prefix matches first', () => {
    expect(filterCommands(commands, 'w')[0]?.label).toBe('Watch a folder…');
  });
});

describe('excerpt', () => {
  it('cuts around the first query word', () => {
    const body = `${'lorem '.repeat(50)}tracing compiler ${'ipsum '.repeat(50)}`;
    const e = excerpt(body, 'compiler', 60);
    expect(e).toContain('compiler');
    expect(e.startsWith('…')).toBe(true);
    expect(e.endsWith('…')).toBe(true);
  });

  it('keeps short bodies whole', () => {
    expect(excerpt('short  text', 'x')).toBe('short text');
  });
});
