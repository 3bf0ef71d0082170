/**
 * [R5] titles a reader can tell apart and [R6] one entry per source, shown by its best passage
 * (docs/RETRIEVAL.md), on a real engine and a real SQLite file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { indexedWorkspace, type TestWorkspace } from '../testing/test-engine.ts';

let ws: TestWorkspace;
afterEach(async () => ws?.cleanup());

async function indexed(files: Record<string, string>): Promise<Engine> {
  const made = await indexedWorkspace(files);
  ws = made.ws;
  return made.engine;
}

const filler = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `## ${topic} ${i}\n\n${`Ordinary words about ${topic} item ${i}. `.repeat(12)}`,
  );

describe('[R6] one entry per source, shown by the passage that matched', () => {
  it('a file whose match lies deep inside is shown and cited by that section, not its opening', async () => {
    const handbook = [
      '# Handbook',
      'Welcome to the company. This opening talks about nothing in particular.',
      ...filler('holidays', 6),
      '## Time away',
      'Every three years employees may take a 6-week paid sabbatical.',
      ...filler('equipment', 6),
    ].join('\n\n');
    const engine = await indexed({ 'handbook.md': handbook });
    const { hits } = await engine.search('how many weeks of paid sabbatical do employees get', {
      k: 8,
      maxK: 100,
      mode: 'keyword',
    });
    expect(hits).toHaveLength(1);
    const hit = hits[0];
    expect(hit?.storageKind).toBe('section');
    expect(hit?.body).toContain('6-week paid sabbatical');
    expect(hit?.body).not.toContain('Welcome to the company');
    expect(hit?.citation?.lineStart).toBeGreaterThan(10);
    expect(hit?.citation?.fileLabel).toBe('Handbook');
  });

  it('a title that matched is not the passage shown: the section with text that matches is', async () => {
    // A document whose `# Title` line stands alone, its text under the next headings: the title
    // section holds every word of the question and nothing else.
    const adr = [
      '# Architecture Decision Record: Container orchestration',
      '## Problem\n\nOur deployments are too slow to keep up.',
      '## Decision\n\nWe adopt Kubernetes; an architecture decision like this is recorded once.',
      ...filler('notes', 3),
    ].join('\n\n');
    const engine = await indexed({ 'adr.md': adr, 'other.md': '# Other\n\nA record of nothing.\n' });
    const { hits } = await engine.search('architecture decision record', {
      k: 5,
      maxK: 100,
      mode: 'keyword',
    });
    const hit = hits.find(
      (h) => h.citation?.fileLabel === 'Architecture Decision Record: Container orchestration',
    );
    expect(hit?.body).toContain('We adopt Kubernetes');
    expect(hit?.citation?.lineStart).toBeGreaterThan(1);
    // A question that only the title answers still shows a passage with text, not the lone title.
    const title = await engine.search('container orchestration', { k: 5, maxK: 100, mode: 'keyword' });
    expect(title.hits[0]?.body?.trim()).not.toBe('# Architecture Decision Record: Container orchestration');
  });

  it('the title every section shares does not choose the passage: the text that holds the words does', async () => {
    const adr = [
      '# Record: API using JSON v. gRPC',
      '## Status\n\nAccepted',
      '## Context\n\nWe weigh JSON over HTTP against gRPC for the public API of the billing service.',
      '## Notes\n\nNothing else to add here.',
    ].join('\n\n');
    const engine = await indexed({ 'adr.md': adr, 'other.md': '# Other\n\nA note on HTTP caching.\n' });
    const { hits } = await engine.search('gRPC JSON API', { k: 5, maxK: 100, mode: 'keyword' });
    expect(hits[0]?.body).toContain('We weigh JSON over HTTP against gRPC');
  });

  it('two files of one answer with the same title are told apart by their folders ([R5])', async () => {
    const templates = '# Decision record templates\n\n* Template by arc42 for decision records.\n';
    const engine = await indexed({
      'docs/en/templates/index.md': templates,
      'docs/ja/tmpl/index.md': `${templates}\n* 日本語のテンプレート.\n`,
      'docs/en/other.md': '# Decision record examples\n\nExamples of a decision record.\n',
    });
    const { hits } = await engine.search('decision record templates', { k: 5, maxK: 100, mode: 'keyword' });
    const names = hits.map((h) => h.citation?.fileLabel);
    expect(names).toEqual(
      expect.arrayContaining([
        'Decision record templates (templates)',
        'Decision record templates (tmpl)',
        'Decision record examples',
      ]),
    );
  });

  it('a file and its sections fold into one hit with a count of the other passages', async () => {
    const engine = await indexed({
      'billing.md': [
        '# Billing',
        '## Refunds\n\nRefunds for annual plans are paid pro rata.',
        '## Refund exceptions\n\nRefunds are not paid for plans used more than a year.',
        '## Refund timing\n\nRefunds arrive within ten days.',
        ...filler('invoices', 3),
      ].join('\n\n'),
      'support.md': '# Support\n\nAsk support about refunds by email.\n',
      'travel.md': '# Travel\n\nBook trains early.\n',
    });
    const { hits } = await engine.search('refunds', { k: 8, maxK: 100, mode: 'keyword' });
    const files = hits.map((h) => h.citation?.fileId);
    expect(new Set(files).size).toBe(files.length);
    expect(hits.map((h) => h.citation?.fileLabel).sort()).toEqual(['Billing', 'Support']);
    const billing = hits.find((h) => h.citation?.fileLabel === 'Billing');
    expect(billing?.storageKind).toBe('section');
    expect(billing?.more).toBe(2);
    expect(billing?.also).toHaveLength(2);
    expect(billing?.also?.every((a) => a.citation?.fileId === billing.citation?.fileId)).toBe(true);
    expect(billing?.also?.map((a) => a.id)).not.toContain(billing?.id);
  });

  it('shows the section holding most of the question words, not one that repeats the rarest', async () => {
    const engine = await indexed({
      'handbook.md': [
        '# Handbook',
        ...filler('employees policy weeks', 4),
        `## History\n\n${'The sabbatical. '.repeat(10)}`,
        '## Time away\n\nEmployees get a sabbatical of six weeks under this policy.',
      ].join('\n\n'),
    });
    const { hits } = await engine.search('sabbatical policy employees weeks', {
      k: 5,
      maxK: 100,
      mode: 'keyword',
    });
    expect(hits).toHaveLength(1);
    expect(hits[0]?.body).toContain('sabbatical of six weeks');
    // BM25 alone ranks the repeating section first: it is the other passage.
    expect(hits[0]?.more).toBeGreaterThanOrEqual(1);
  });

  it('k counts sources: eight hits cover eight files even when one file has many matching sections', async () => {
    const files: Record<string, string> = {
      'big.md': [
        '# Big',
        ...Array.from({ length: 12 }, (_, i) => `## Part ${i}\n\nretention policy ${i}`),
      ].join('\n\n'),
    };
    for (let i = 0; i < 9; i++) files[`small-${i}.md`] = `# Small ${i}\n\nretention policy note ${i}\n`;
    const engine = await indexed(files);
    const { hits } = await engine.search('retention policy', { k: 8, maxK: 100, mode: 'keyword' });
    expect(hits).toHaveLength(8);
    expect(new Set(hits.map((h) => h.citation?.fileId)).size).toBe(8);
  });
  it('a passage shown once already (the same document in two folders) rides along instead of taking a place', async () => {
    const adr = '# Secrets storage\n\n## Decision\n\nWe keep deploy secrets in a vault with rotation.\n';
    const engine = await indexed({
      'en/secrets/index.md': adr,
      'tr/secrets/index.md': adr,
      'vault-howto.md': '# Vault how-to\n\nOpen the vault and rotate the deploy secrets monthly.\n',
    });
    const { hits } = await engine.search('deploy secrets vault rotation', {
      k: 3,
      maxK: 100,
      mode: 'keyword',
    });
    // Three sources match, two of them with the same text: the copy is not a place of its own.
    // Both copies are named with their folders, as files of one answer that share a title are ([R5]).
    expect(hits.map((h) => h.citation?.fileLabel).sort()).toEqual(['Secrets storage (en)', 'Vault how-to']);
    const secrets = hits.find((h) => h.citation?.fileLabel === 'Secrets storage (en)');
    const copy = secrets?.also?.find((a) => a.citation?.fileId !== secrets.citation?.fileId);
    expect(copy?.label).toBe(secrets?.label);
    expect(copy?.citation?.fileLabel).toBe('Secrets storage (tr)');
    expect(secrets?.more).toBeGreaterThanOrEqual(1);
  });
});

describe('[R5] titles a person can tell apart', () => {
  it('front matter title, else the single top heading, else front matter name, else the file name with its folder', async () => {
    const engine = await indexed({
      'adr/go/index.md': '# Decision: adopt Go\n\nWe adopt golang for services.\n',
      'adr/rust/index.md': '# Decision: adopt Rust\n\nWe adopt rustlang for services.\n',
      'adr/plain/index.md': 'Plain notes about zigzag services.\n',
      'fm.md': '---\ntitle: From front matter\n---\n# Heading\n\nquokka facts\n',
      'two.md': '# One\n\nnarwhal a\n\n# Two\n\nnarwhal b\n',
      'named.md': '---\nname: Named in front matter\n---\nplatypus facts\n',
      'docs/README.md': 'axolotl readme text\n',
    });
    const label = async (q: string) =>
      (await engine.search(q, { k: 1, maxK: 100, mode: 'keyword' })).hits[0]?.citation?.fileLabel;
    expect(await label('golang')).toBe('Decision: adopt Go');
    expect(await label('rustlang')).toBe('Decision: adopt Rust');
    expect(await label('zigzag')).toBe('plain/index.md');
    expect(await label('quokka')).toBe('From front matter');
    expect(await label('narwhal')).toBe('two.md');
    expect(await label('platypus')).toBe('Named in front matter');
    expect(await label('axolotl')).toBe('docs/README.md');
    const go = (await engine.search('golang', { k: 1, maxK: 100, mode: 'keyword' })).hits[0];
    // The title is not said twice in a section's breadcrumb.
    expect(go?.label).toBe('Decision: adopt Go');
  });
});

describe('[R10] a keyword match of a file row votes less than a passage', () => {
  it('a file whose words are only scattered over its short sections does not push out a passage that holds them all', async () => {
    // Each of "titles.md"'s sections holds one word of the question, so only its row (title and
    // opening) holds them all; the other two hold them in one section past their opening.
    const engine = await indexed({
      'titles.md':
        '# Titles\n\n## Buddy\n\nA buddy.\n\n## Assigned\n\nRoles get assigned.\n\n## New hire\n\nA new hire title.\n',
      'faq.md': ['# FAQ', ...filler('parking', 6), '## Onboarding\n\nA new hire is assigned a buddy.'].join(
        '\n\n',
      ),
      'guide.md': [
        '# Guide',
        ...filler('laptops', 6),
        '## First days\n\nEvery new hire is assigned a buddy from another team, who meets them on the first morning and shows them around.',
      ].join('\n\n'),
    });
    const { hits } = await engine.search('new hire buddy assigned', { k: 3, maxK: 100, mode: 'keyword' });
    expect(hits.map((h) => h.citation?.fileLabel)).toEqual(['FAQ', 'Guide', 'Titles']);
    expect(hits[1]?.body).toContain('assigned a buddy from another team');
  });
});
