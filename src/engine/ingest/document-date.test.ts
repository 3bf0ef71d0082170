/** [R2] in docs/RETRIEVAL.md: reading the dates documents state, and refusing the ones nobody meant. */
import { describe, expect, it } from 'vitest';
import { buildDocx, buildZip } from '../../../test/ingest-helpers/build-office.ts';
import { coreDate } from './core-props.ts';
import { datedFrom, datedNote, latestDate, statedDate } from './document-date.ts';
import { parseFrontMatter } from './markdown.ts';
import { pdfDate } from './pdf.ts';

const NOW = Date.parse('2026-06-01T00:00:00Z');

describe('[R2] stated dates', () => {
  it('[R2] reads ISO dates and times as UTC when they name no zone, and honours a zone', () => {
    expect(statedDate('2023-01-15', NOW)).toBe('2023-01-15T00:00:00.000Z');
    expect(statedDate('2023-01-15 10:30', NOW)).toBe('2023-01-15T10:30:00.000Z');
    expect(statedDate('2023-01-15T10:30:00+02:00', NOW)).toBe('2023-01-15T08:30:00.000Z');
    expect(statedDate('2023-1-5', NOW)).toBe('2023-01-05T00:00:00.000Z');
    expect(statedDate('2023-04', NOW)).toBe('2023-04-01T00:00:00.000Z');
    expect(statedDate(new Date('2022-02-02T02:02:02Z'), NOW)).toBe('2022-02-02T02:02:02.000Z');
  });

  it('[R2] reads a bare year and written-out dates that name a year', () => {
    expect(statedDate(2021, NOW)).toBe('2021-01-01T00:00:00.000Z');
    expect(statedDate('2021', NOW)).toBe('2021-01-01T00:00:00.000Z');
    expect(statedDate('15 Jan 2023', NOW)).toBe('2023-01-15T00:00:00.000Z');
    expect(statedDate('January 15, 2023', NOW)).toBe('2023-01-15T00:00:00.000Z');
  });

  it('[R2] refuses what is no date: words, tool zero dates, the far future, other types', () => {
    for (const v of ['draft', 'version 3', 'Q3', '', '1601-01-01', '1899-12-30', '1970-01-01T00:00:00Z']) {
      expect(statedDate(v, NOW), v).toBeNull();
    }
    expect(statedDate('2030-01-01', NOW)).toBeNull();
    expect(statedDate(1.5, NOW)).toBeNull();
    expect(statedDate({ year: 2020 }, NOW)).toBeNull();
    expect(statedDate(['2020-01-01'], NOW)).toBeNull();
  });

  it('[R2] the latest of several candidates wins, and says where it came from', () => {
    expect(
      latestDate([
        { value: '2021-01-01', from: 'a' },
        { value: 'nonsense', from: 'b' },
        { value: '2022-05-05', from: 'c' },
        { value: undefined, from: 'd' },
      ]),
    ).toEqual({ at: '2022-05-05T00:00:00.000Z', from: 'c' });
    expect(latestDate([{ value: undefined, from: 'x' }])).toBeNull();
    expect(datedFrom(['tables flattened to text', datedNote('PDF ModDate')])).toBe('PDF ModDate');
    expect(datedFrom(['tables flattened to text'])).toBeNull();
  });

  it('[R2] front matter: date, updated, last_modified, lastmod, modified; YAML dates included', () => {
    const fm = (yaml: string) => parseFrontMatter(`---\n${yaml}\n---\nbody\n`);
    expect(fm('date: 2023-01-15')).toMatchObject({
      occurredAt: '2023-01-15T00:00:00.000Z',
      datedBy: 'front matter `date`',
    });
    expect(fm('date: 2020-01-01\nlast_modified: 2022-02-02').datedBy).toBe('front matter `last_modified`');
    expect(fm('lastmod: 2022-03-03T10:00:00Z').occurredAt).toBe('2022-03-03T10:00:00.000Z');
    expect(fm('title: No date here')).toMatchObject({ occurredAt: null, datedBy: null });
    expect(fm('date: soon')).toMatchObject({ occurredAt: null, datedBy: null });
  });

  it('[R2] PDF date strings, with and without a zone', () => {
    expect(pdfDate("D:20220310091500+01'00'")).toBe('2022-03-10T08:15:00.000Z');
    expect(pdfDate('D:20210704')).toBe('2021-07-04T00:00:00.000Z');
    expect(pdfDate('not a date')).toBeNull();
  });
});

describe('[R2] Office core properties', () => {
  it('[R2] dcterms:modified, else dcterms:created, whatever the namespace prefix', async () => {
    const both = await buildDocx(['x'], {
      created: '2019-02-01T10:00:00Z',
      modified: '2022-06-01T08:30:00Z',
    });
    expect(coreDate(both)).toEqual({
      at: '2022-06-01T08:30:00.000Z',
      from: 'document properties (modified)',
    });
    const created = await buildDocx(['x'], { created: '2020-09-09T00:00:00Z' });
    expect(coreDate(created)?.from).toBe('document properties (created)');
    const prefixed = await buildZip({
      'docProps/core.xml':
        '<a:coreProperties xmlns:a="x" xmlns:t="y"><t:modified>2021-12-24T18:00:00Z</t:modified></a:coreProperties>',
    });
    expect(coreDate(prefixed)?.at).toBe('2021-12-24T18:00:00.000Z');
  });

  it('[R2] no core part, an unreadable one, or a date nobody meant give no date', async () => {
    expect(coreDate(await buildDocx(['x']))).toBeNull();
    expect(coreDate(await buildZip({ 'docProps/core.xml': '<cp:coreProperties><broken' }))).toBeNull();
    const zero = await buildDocx(['x'], {
      created: '1601-01-01T00:00:00Z',
      modified: '1899-12-30T00:00:00Z',
    });
    expect(coreDate(zero)).toBeNull();
    expect(coreDate(new Uint8Array([1, 2, 3]))).toBeNull();
  });
});
