/** Debian's Chromium through playwright-core, headless, with a fresh profile, collecting console problems. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

const EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENS_DIR = path.resolve(import.meta.dirname, '..', '..', 'test-results', 'screens');

export type Session = {
  context: BrowserContext;
  page: Page;
  /** Console errors and CSP violations seen so far. */
  problems: string[];
  close: () => Promise<void>;
};

export async function openApp(url: string, opts: { colorScheme?: 'light' | 'dark' } = {}): Promise<Session> {
  const profile = mkdtempSync(path.join(tmpdir(), 'org-brain-chromium-'));
  // A fresh profile per session (playwright passes it to Chromium as --user-data-dir).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: EXECUTABLE,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport: { width: 1440, height: 900 },
    colorScheme: opts.colorScheme ?? 'light',
    deviceScaleFactor: 1,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  await page.goto(url);
  return {
    context,
    page,
    problems,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  const file = path.join(SCREENS_DIR, `${name}.png`);
  // A canvas drawn by software WebGL on a loaded two-core machine can take long to capture.
  await page.screenshot({ path: file, animations: 'disabled', timeout: 90_000 });
  return file;
}

/** CSP violations and errors the app logged, minus what a test expects (e.g. a refused upload). */
export function unexpectedProblems(problems: string[], allowed: RegExp[] = []): string[] {
  return problems.filter((p) => !allowed.some((re) => re.test(p)));
}

/** The shared fixtures (../shared/fixtures, or BRAIN_SHARED_DIR's). */
export const FIXTURES = path.join(process.env.BRAIN_SHARED_DIR ?? path.resolve('../shared'), 'fixtures');

/** The Files screen's grid. */
export function filesGrid(page: Page) {
  return page.getByRole('grid', { name: 'Files' });
}

/** Asks in Chat (opened from the rail) and returns the answer's article. */
export async function askInChat(page: Page, question: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill(question);
  await message.press('Enter');
  return page.getByRole('article', { name: 'Answer' }).last();
}
