import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { isCommandName } from '#shared/api/contract.ts';
import { EVENT_NAMES, isEventName } from '#shared/api/events.ts';
import { isApiCommand } from '#shared/api/names.ts';
import {
  type AppLocation,
  CONTENT_SECURITY_POLICY,
  DEV_CONTENT_SECURITY_POLICY,
  isTrustedUrl,
  MAX_EXTERNAL_URL_LENGTH,
  openExternalSafely,
  parseDevServerUrl,
  toSafeExternalUrl,
  withContentSecurityPolicy,
} from './security.ts';

const INDEX = 'file:///opt/Org%20Brain/resources/app.asar/out/renderer/index.html';
const built: AppLocation = { rendererFileUrl: INDEX };
const dev: AppLocation = { rendererFileUrl: INDEX, devServerUrl: 'http://localhost:5173/' };

describe('isTrustedUrl (built app, file://)', () => {
  it.each([
    [INDEX],
    [`${INDEX}#/search`],
    [`${INDEX}?q=1`],
    ['FILE:///opt/Org%20Brain/resources/app.asar/out/renderer/index.html'],
    ['file://localhost/opt/Org%20Brain/resources/app.asar/out/renderer/index.html'],
    ['file:///opt/Org%20Brain/resources/app.asar/out/renderer/./index.html'],
  ])('trusts %s', (url) => {
    expect(isTrustedUrl(url, built)).toBe(true);
  });

  it.each([
    ['file:///etc/passwd'],
    ['file:///opt/Org%20Brain/resources/app.asar/out/renderer/other.html'],
    ['file:///opt/Org%20Brain/resources/app.asar/out/renderer/index.html.evil'],
    ['file:///opt/Org%20Brain/resources/app.asar/out/renderer/index.htmlx'],
    ['file:///opt/Org%20Brain/resources/app.asar/out/renderer/'],
    ['file:///opt/Org%20Brain/resources/app.asar/out/renderer/index.html/../../../../../etc/passwd'],
    ['file:///opt/Org%20Brain/resources/app.asar/out/renderer/%2e%2e/renderer2/index.html'],
    ['file:///opt/Org%20Brain/resources/app.asar/out/renderer/%69ndex.html'],
    ['file:///tmp/evil/opt/Org%20Brain/resources/app.asar/out/renderer/index.html'],
    ['file://evil.example/opt/Org%20Brain/resources/app.asar/out/renderer/index.html'],
    ['file://attacker@/opt/Org%20Brain/resources/app.asar/out/renderer/index.html'],
    ['http://localhost:5173/'],
    ['https://evil.example/opt/Org%20Brain/resources/app.asar/out/renderer/index.html'],
    [`https://evil.example/?next=${INDEX}`],
    [`javascript:alert(1)//${INDEX}`],
    [`data:text/html,<script>alert(1)</script>${INDEX}`],
    [`blob:${INDEX}`],
    [`view-source:${INDEX}`],
    ['about:blank'],
    ['chrome://settings'],
    ['devtools://devtools/bundled/inspector.html'],
    [''],
    ['not a url'],
    [INDEX.replace('file:///', 'file:/\\')],
  ])('rejects %s', (url) => {
    expect(isTrustedUrl(url, built)).toBe(false);
  });

  it('rejects non-strings', () => {
    for (const value of [undefined, null, 42, {}, { toString: () => INDEX }, [INDEX]]) {
      expect(isTrustedUrl(value, built)).toBe(false);
    }
  });

  it('trusts nothing when the renderer URL is not a file URL', () => {
    expect(isTrustedUrl('https://example.com/', { rendererFileUrl: 'https://example.com/' })).toBe(false);
    expect(isTrustedUrl(INDEX, { rendererFileUrl: 'garbage' })).toBe(false);
  });
});

describe('isTrustedUrl (dev server)', () => {
  it.each([
    ['http://localhost:5173/'],
    ['http://localhost:5173'],
    ['http://localhost:5173/src/main.tsx?t=1#x'],
    ['HTTP://LOCALHOST:5173/'],
    // The URL parser (like Chromium's) reads these as the dev server itself, so they are the same origin.
    ['http://localhost:5173\\@evil.example/'],
    ['http://\u217Cocalhost:5173/'],
    [INDEX],
  ])('trusts %s', (url) => {
    expect(isTrustedUrl(url, dev)).toBe(true);
  });

  it.each([
    ['http://localhost:5174/'],
    ['http://localhost/'],
    ['http://localhost:80/'],
    ['https://localhost:5173/'],
    ['ws://localhost:5173/'],
    ['http://127.0.0.1:5173/'],
    ['http://[::1]:5173/'],
    ['http://localhost.evil.example:5173/'],
    ['http://localhost:5173.evil.example/'],
    ['http://localhost%2eevil.example:5173/'],
    ['http://evil.example/http://localhost:5173/'],
    ['http://evil.example:5173/?u=http://localhost:5173/'],
    ['http://user:pass@localhost:5173/'],
    ['http://user@localhost:5173/'],
    ['http://:pass@localhost:5173/'],
    ['http://localhost:5173@evil.example/'],
    ['http://evil.example#@localhost:5173/'],
    ['http://l\u043ecalhost:5173/'],
    ['http://xn--ocalhost-jq3d:5173/'],
    ['//localhost:5173/'],
    ['localhost:5173'],
  ])('rejects %s', (url) => {
    expect(isTrustedUrl(url, dev)).toBe(false);
  });

  it('ignores a dev server URL that is not http(s) on loopback', () => {
    for (const devServerUrl of [
      'http://evil.example:5173/',
      'http://user:pw@localhost:5173/',
      'file:///tmp/index.html',
      'javascript:alert(1)',
      'http://localhost.evil.example:5173/',
      'garbage',
      '',
    ]) {
      const location = { rendererFileUrl: INDEX, devServerUrl };
      expect(isTrustedUrl(devServerUrl, location)).toBe(false);
      expect(isTrustedUrl('http://evil.example:5173/', location)).toBe(false);
      expect(isTrustedUrl(INDEX, location)).toBe(true);
    }
  });

  it('parseDevServerUrl accepts only loopback http(s)', () => {
    expect(parseDevServerUrl('http://localhost:5173/')?.origin).toBe('http://localhost:5173');
    expect(parseDevServerUrl('https://127.0.0.1:9000')?.origin).toBe('https://127.0.0.1:9000');
    expect(parseDevServerUrl('http://[::1]:5173/')?.origin).toBe('http://[::1]:5173');
    expect(parseDevServerUrl(undefined)).toBeNull();
    expect(parseDevServerUrl('http://192.168.1.10:5173/')).toBeNull();
    expect(parseDevServerUrl('http://0.0.0.0:5173/')).toBeNull();
  });
});

describe('toSafeExternalUrl / openExternalSafely', () => {
  it.each([
    ['https://example.com', 'https://example.com/'],
    ['http://example.com/a?b=c#d', 'http://example.com/a?b=c#d'],
    ['HTTPS://Example.COM/Path', 'https://example.com/Path'],
    ['https://exämple.com/', 'https://xn--exmple-cua.com/'],
    [' https://example.com/ ', 'https://example.com/'],
  ])('opens %s as %s', (input, expected) => {
    expect(toSafeExternalUrl(input)).toBe(expected);
  });

  it.each([
    ['file:///etc/passwd'],
    ['javascript:alert(1)'],
    ['JaVaScRiPt:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['vbscript:msgbox(1)'],
    ['ms-msdt:/id PCWDiagnostic'],
    ['search-ms:query=calc'],
    ['smb://evil.example/share'],
    ['ftp://example.com/'],
    ['mailto:someone@example.com'],
    ['tel:+15555555555'],
    ['ssh://example.com'],
    ['chrome://settings'],
    ['about:blank'],
    ['blob:https://example.com/uuid'],
    ['https://user:pass@example.com/'],
    ['https://example.com@evil.example/'],
    ['http:///'],
    ['https:'],
    ['//example.com'],
    ['example.com'],
    ['notes/readme.md'],
    [''],
  ])('refuses %s', (input) => {
    expect(toSafeExternalUrl(input)).toBeNull();
  });

  it('refuses URLs longer than the limit', () => {
    expect(toSafeExternalUrl(`https://example.com/${'a'.repeat(MAX_EXTERNAL_URL_LENGTH)}`)).toBeNull();
  });

  it('refuses non-strings', () => {
    for (const value of [undefined, null, 1, {}, ['https://example.com'], { href: 'https://example.com' }]) {
      expect(toSafeExternalUrl(value)).toBeNull();
    }
  });

  it('hands only safe, normalized URLs to the opener', async () => {
    const open = vi.fn(async (_href: string) => {});
    expect(await openExternalSafely('https://Example.com', open)).toBe(true);
    expect(await openExternalSafely('file:///etc/passwd', open)).toBe(false);
    expect(await openExternalSafely('javascript:alert(1)', open)).toBe(false);
    expect(open).toHaveBeenCalledTimes(1);
    expect(open).toHaveBeenCalledWith('https://example.com/');
  });

  it('reports a failing opener as not opened', async () => {
    const open = vi.fn(async () => {
      throw new Error('no browser');
    });
    expect(await openExternalSafely('https://example.com', open)).toBe(false);
  });
});

describe('Content-Security-Policy', () => {
  it('is the strict policy', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'",
    );
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe');
  });

  it('relaxes only inline scripts and styles for the dev server', () => {
    expect(DEV_CONTENT_SECURITY_POLICY).toContain("script-src 'self' 'unsafe-inline'");
    expect(DEV_CONTENT_SECURITY_POLICY).toContain("style-src 'self' 'unsafe-inline'");
    expect(DEV_CONTENT_SECURITY_POLICY.replaceAll(" 'unsafe-inline'", '')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('is repeated verbatim in the renderer index.html meta tag', () => {
    const html = readFileSync(new URL('../renderer/index.html', import.meta.url), 'utf8');
    expect(html).toContain('http-equiv="Content-Security-Policy"');
    expect(html).toContain(`content="${CONTENT_SECURITY_POLICY}"`);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=|<style/);
  });

  it('replaces any CSP header the response carried, whatever its case', () => {
    const headers = withContentSecurityPolicy(
      {
        'content-security-policy': ['default-src *'],
        'CONTENT-SECURITY-POLICY': ['x'],
        'Content-Type': ['text/html'],
      },
      CONTENT_SECURITY_POLICY,
    );
    expect(headers).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
    expect(withContentSecurityPolicy(undefined, 'x')).toEqual({ 'Content-Security-Policy': ['x'] });
  });
});

describe('IPC allowlists', () => {
  it('accept only the listed names', () => {
    expect(isCommandName('app.info')).toBe(true);
    expect(isApiCommand('files.list')).toBe(true);
    for (const bad of [
      'app.quit',
      'APP.INFO',
      'app.info ',
      '__proto__',
      'constructor',
      'toString',
      '',
      1,
      null,
    ]) {
      expect(isCommandName(bad)).toBe(false);
      expect(isApiCommand(bad)).toBe(false);
    }
    for (const name of EVENT_NAMES) expect(isEventName(name)).toBe(true);
    for (const bad of ['brain:invoke', '__proto__', 'files.changed\u0000', undefined]) {
      expect(isEventName(bad)).toBe(false);
    }
  });
});

describe('the desktop app’s windows and handlers (docs/PACKAGING.md [N8]–[N14])', () => {
  const source = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');
  const main = source('./index.ts');
  /** The pure helpers main uses for the desktop: they import electron's types at most. */
  const helpers = [
    './menu.ts',
    './open-files.ts',
    './window-state.ts',
    './login-item.ts',
    './log-file.ts',
    './engine-supervisor.ts',
    './updates.ts',
  ];

  it('opens one BrowserWindow, sandboxed and isolated, and nothing else opens one', () => {
    expect(main.match(/new BrowserWindow\(/g)).toHaveLength(1);
    for (const flag of [
      'contextIsolation: true',
      'sandbox: true',
      'nodeIntegration: false',
      'nodeIntegrationInWorker: false',
      'nodeIntegrationInSubFrames: false',
      'webviewTag: false',
      'webSecurity: true',
    ]) {
      expect(main).toContain(flag);
    }
    for (const file of [...helpers, './ipc.ts']) {
      expect(source(file), file).not.toMatch(/new BrowserWindow|BrowserView|WebContentsView|openExternal/);
    }
  });

  it('keeps the menu and desktop helpers free of electron at run time', () => {
    for (const file of helpers) {
      const imports = source(file).match(/^import (?!type ).*from 'electron';$/gm);
      expect(imports, file).toBeNull();
    }
  });

  it('shows the About box and the pickers as native dialogs, and opens only its own folders', () => {
    expect(main).toContain('dialog.showMessageBox(');
    expect(main).toContain('dialog.showOpenDialog(');
    // shell.openPath is called in one place, openFolder, on the workspace, the logs folder and an
    // export the engine just wrote (File → Export…, [N16]).
    expect(main.match(/shell\.openPath\(/g)).toHaveLength(1);
    expect(main).toContain('if (response === 1 && said.folder) openFolder(said.folder);');
    expect(main).toContain('openDataFolder: () => openFolder(workspaceHome())');
    expect(main).toContain("openLogs: () => openFolder(app.getPath('logs'))");
    // Links still leave the app only through openExternalSafely.
    expect(main.match(/shell\.openExternal\b/g)).toHaveLength(1);
    expect(main).toContain('openExternalSafely(url, (href) => shell.openExternal(href))');
  });

  it('has no menu item that opens a window or a web page of its own', async () => {
    const { buildMenuTemplate } = await import('./menu.ts');
    const noop = () => {};
    const handlers = {
      addFiles: noop,
      addFolder: noop,
      watchFolder: noop,
      exportData: noop,
      openDataFolder: noop,
      openLogs: noop,
      about: noop,
    };
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      const flat = (list: unknown[]): Record<string, unknown>[] =>
        (list as Record<string, unknown>[]).flatMap((i) => [
          i,
          ...(Array.isArray(i.submenu) ? flat(i.submenu) : []),
        ]);
      const all = flat(buildMenuTemplate({ platform, appName: 'Org Brain', development: false, handlers }));
      const roles = all.map((i) => i.role).filter(Boolean);
      // Electron's own About panel and the developer tools are windows: the app uses neither.
      for (const role of ['about', 'toggleDevTools', 'forceReload', 'reload'])
        expect(roles).not.toContain(role);
      for (const item of all) {
        // Every item is a role, a separator, a submenu, a disabled placeholder, or calls a handler.
        const ok =
          item.role !== undefined ||
          item.type === 'separator' ||
          Array.isArray(item.submenu) ||
          item.enabled === false ||
          typeof item.click === 'function';
        expect(ok, JSON.stringify(item)).toBe(true);
      }
    }
  });

  it('loads electron-updater only for a configured feed, in a packaged app', () => {
    expect(main).not.toMatch(/from 'electron-updater'/);
    // Required in one place (startUpdates); the other mention is its type.
    expect(main.match(/'electron-updater'/g)).toHaveLength(2);
    expect(main.match(/typeof import\('electron-updater'\)/g)).toHaveLength(1);
    expect(main).toContain(
      'const feed = app.isPackaged ? updateFeed(preferences.updateFeed, process.env) : null;',
    );
    expect(main).toContain('if (feed) startUpdates(feed);');
  });

  it('sends app.command to the window only: it is no command the window may invoke', () => {
    expect(isEventName('app.command')).toBe(true);
    expect(isCommandName('app.command')).toBe(false);
    expect(isApiCommand('app.command')).toBe(false);
  });
});
