import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { aboutText, buildMenuTemplate, type MenuHandlers } from './menu.ts';

function handlers(): MenuHandlers & Record<string, ReturnType<typeof vi.fn>> {
  return {
    addFiles: vi.fn(),
    addFolder: vi.fn(),
    watchFolder: vi.fn(),
    exportData: vi.fn(),
    openDataFolder: vi.fn(),
    openLogs: vi.fn(),
    about: vi.fn(),
  };
}

/** Every item of the template, depth first. */
function items(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [
    item,
    ...(Array.isArray(item.submenu) ? items(item.submenu as MenuItemConstructorOptions[]) : []),
  ]);
}

const byId = (template: MenuItemConstructorOptions[], id: string) => items(template).find((i) => i.id === id);
const menu = (template: MenuItemConstructorOptions[], label: string) =>
  (template.find((m) => m.label?.replace('&', '') === label)?.submenu ?? []) as MenuItemConstructorOptions[];

const click = (item: MenuItemConstructorOptions | undefined) => (item?.click as (() => void) | undefined)?.();

describe('the application menu ([N10] in docs/PACKAGING.md)', () => {
  for (const platform of ['linux', 'win32', 'darwin'] as const) {
    it(`has the File commands with accelerators, each calling its handler (${platform})`, () => {
      const h = handlers();
      const template = buildMenuTemplate({ platform, appName: 'Org Brain', development: false, handlers: h });
      const file = menu(template, 'File');
      const commands: [string, string, string | undefined, keyof MenuHandlers][] = [
        ['add-files', 'Add Files…', 'CmdOrCtrl+O', 'addFiles'],
        ['add-folder', 'Add Folder…', 'CmdOrCtrl+Shift+O', 'addFolder'],
        ['watch-folder', 'Watch Folder…', 'CmdOrCtrl+Shift+W', 'watchFolder'],
        ['export', 'Export…', 'CmdOrCtrl+Shift+E', 'exportData'],
        ['open-data-folder', 'Open Data Folder', undefined, 'openDataFolder'],
        ['open-logs', 'Open Logs', undefined, 'openLogs'],
        ['about', 'About Org Brain', undefined, 'about'],
      ];
      for (const [id, label, accelerator, handler] of commands) {
        const item = byId(template, id);
        expect(item?.label, id).toBe(label);
        expect(item?.accelerator, id).toBe(accelerator);
        expect(h[handler]).not.toHaveBeenCalled();
        click(item);
        expect(h[handler], id).toHaveBeenCalledTimes(1);
      }
      expect(file.map((i) => i.id).filter(Boolean)).toEqual([
        'add-files',
        'add-folder',
        'watch-folder',
        'export',
      ]);
      // Accelerators are unique.
      const accelerators = items(template)
        .map((i) => i.accelerator)
        .filter(Boolean);
      expect(new Set(accelerators).size).toBe(accelerators.length);
    });

    it(`has Edit roles, zoom in View, and Help's commands (${platform})`, () => {
      const template = buildMenuTemplate({
        platform,
        appName: 'Org Brain',
        development: false,
        handlers: handlers(),
      });
      const roles = (label: string) =>
        menu(template, label)
          .map((i) => i.role)
          .filter(Boolean);
      expect(roles('Edit')).toEqual(
        expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']),
      );
      expect(roles('View')).toEqual(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
      expect(
        menu(template, 'Help')
          .map((i) => i.id)
          .filter(Boolean),
      ).toEqual(
        platform === 'darwin'
          ? ['open-data-folder', 'open-logs']
          : ['open-data-folder', 'open-logs', 'about'],
      );
      if (platform === 'darwin') {
        expect(template[0]?.label).toBe('Org Brain');
        expect(menu(template, 'Org Brain')[0]?.id).toBe('about');
      } else {
        expect(roles('File')).toContain('quit');
      }
    });
  }

  it('shows Export… disabled while the app has no export', () => {
    const { exportData: _, ...rest } = handlers();
    const template = buildMenuTemplate({
      platform: 'linux',
      appName: 'Org Brain',
      development: false,
      handlers: rest,
    });
    const item = byId(template, 'export');
    expect(item?.enabled).toBe(false);
    expect(item?.click).toBeUndefined();
  });

  it('offers Reload and the developer tools only in development', () => {
    const roles = (development: boolean) =>
      items(
        buildMenuTemplate({ platform: 'linux', appName: 'Org Brain', development, handlers: handlers() }),
      ).map((i) => i.role);
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(false)).not.toContain('reload');
    expect(roles(true)).toEqual(expect.arrayContaining(['reload', 'toggleDevTools']));
  });
});

describe('aboutText', () => {
  it('names the app and the versions it runs on', () => {
    const text = aboutText(
      'Org Brain',
      { app: '0.1.0', electron: '41.7.1', chrome: '146.0.1', node: '24.1.0', v8: '14.6' },
      'linux x64',
    );
    expect(text.message).toBe('Org Brain 0.1.0');
    expect(text.detail.split('\n')).toEqual([
      'Electron 41.7.1',
      'Chromium 146.0.1',
      'Node.js 24.1.0',
      'V8 14.6',
      'OS linux x64',
    ]);
  });
});
