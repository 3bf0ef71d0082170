/**
 * Repository trees in the app (docs/TREES.md), in Chromium against `brain serve`: a Git repository
 * connected from the Trees screen, browsed with the keyboard, a node read with its line numbers, a
 * backlink followed, the broken links view, what changed since the first commit, and Ctrl+K finding
 * a node by its reference id.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { screenshot, unexpectedProblems } from './support/browser.ts';
import { freshHome } from './support/serve.ts';
import { cleanup, start } from './support/session.ts';

/**
 * A small handbook repository: two folders, a card, a link, a broken link; a second commit adds a
 * line to the card. Returns the repository and its first commit.
 */
function makeRepo(): { repo: string; first: string } {
  const repo = path.join(mkdtempSync(path.join(tmpdir(), 'org-brain-e2e-repo-')), 'handbook');
  cleanup(() => rmSync(path.dirname(repo), { recursive: true, force: true }));
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Ada',
    GIT_AUTHOR_EMAIL: 'ada@example.com',
    GIT_COMMITTER_NAME: 'Ada',
    GIT_COMMITTER_EMAIL: 'ada@example.com',
  };
  const put = (p: string, text: string) => {
    mkdirSync(path.dirname(path.join(repo, p)), { recursive: true });
    writeFileSync(path.join(repo, p), text);
  };
  put('README.md', '# Handbook\n\nHow the team works.\n');
  put(
    'policies/refunds.md',
    '# Refunds\n\nHow refunds are decided.\n\n## RULE-REF-0001 Refund window\n\nRefunds are accepted within 30 days.\n',
  );
  put(
    'guides/support.md',
    '# Support guide\n\nAnswer within a day. Refunds follow [the refund window](../policies/refunds.md#RULE-REF-0001).\nSee also [the old FAQ](faq.md).\n',
  );
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  execFileSync('git', ['-C', repo, 'add', '-A'], { env });
  execFileSync('git', ['-C', repo, 'commit', '-q', '-m', 'Handbook'], { env });
  const first = execFileSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  put(
    'policies/refunds.md',
    '# Refunds\n\nHow refunds are decided.\n\n## RULE-REF-0001 Refund window\n\nRefunds are accepted within 30 days.\nKeep the receipt.\n',
  );
  execFileSync('git', ['-C', repo, 'commit', '-q', '-a', '-m', 'Ask for the receipt'], { env });
  return { repo, first };
}

describe('Trees screen', () => {
  it('connects a repository, browses it by keyboard, reads a node, follows a backlink, lists broken links and changes', async () => {
    const home = freshHome();
    const { repo, first } = makeRepo();
    const { s } = await start(home);
    const { page } = s;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Trees' }).click();
    await page.getByRole('heading', { name: 'No repository connected' }).waitFor();
    await page
      .getByRole('button', { name: /Connect a repository/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/Folder/).fill(repo);
    await dialog.getByRole('button', { name: /^Connect/ }).click();

    const tree = page.getByRole('tree');
    await tree
      .getByRole('treeitem', { name: /guides/ })
      .first()
      .waitFor();
    await screenshot(page, 'trees-01-connected');

    // Keyboard: into the tree, down to policies/, open it, down to the document, Enter reads it.
    await tree
      .getByRole('treeitem', { name: /guides/ })
      .first()
      .focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await tree
      .getByRole('treeitem', { name: /Refunds/ })
      .first()
      .waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const doc = page.getByRole('article', { name: 'Refunds' });
    await doc.waitFor();
    const text = doc.getByRole('region', { name: 'Text of Refunds' });
    await expect.poll(() => text.textContent()).toContain('Refunds are accepted within 30 days.');
    expect(await text.textContent()).toMatch(/1\s*# Refunds/);
    await screenshot(page, 'trees-02-read');

    // The page is linked from the support guide: its backlink opens the guide.
    const backlinks = doc.getByRole('list', { name: 'Backlinks' });
    await backlinks.waitFor();
    await backlinks.getByRole('button').first().click();
    await page.getByRole('article', { name: 'Support guide' }).waitFor();

    await page.getByRole('tab', { name: 'Broken links' }).click();
    const broken = page.getByRole('table', { name: 'Broken links' });
    await broken.waitFor();
    expect(await broken.textContent()).toContain('faq.md');
    await screenshot(page, 'trees-03-broken');

    // What changed since the first commit: the refund policy, and its card, which opens in the node view.
    await page.getByRole('tab', { name: 'What changed…' }).click();
    await page.getByRole('textbox', { name: 'Since commit' }).fill(first.slice(0, 7));
    await page.keyboard.press('Enter');
    const changed = page.getByRole('table', { name: 'Changed documents' });
    await changed.waitFor();
    const row = changed.getByRole('row', { name: /policies\/refunds\.md/ });
    expect(await row.textContent()).toMatch(/Modified.*\+1 −0/);
    const nodes = page.getByRole('list', { name: 'Changed sections and cards' });
    await screenshot(page, 'trees-04-changes');
    await nodes.getByRole('button', { name: /RULE-REF-0001 Refund window/ }).click();
    const card = page.getByRole('article', { name: /RULE-REF-0001 Refund window/ });
    await expect
      .poll(() => card.getByRole('region', { name: /^Text of/ }).textContent())
      .toContain('Keep the receipt.');

    // Ctrl+K finds a node by its reference id.
    await page.getByRole('tab', { name: 'Tree', exact: true }).click();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog');
    await palette.getByRole('combobox').fill('RULE-REF-0001');
    await palette
      .getByRole('option', { name: /RULE-REF-0001/ })
      .first()
      .waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('article', { name: /Refund window/ }).waitFor();
    expect(unexpectedProblems(s.problems)).toEqual([]);
  });
});
