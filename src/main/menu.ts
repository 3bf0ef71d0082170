/**
 * The application menu as a template ([N10] in docs/PACKAGING.md). Every command item calls one of
 * the handlers it is given; everything else is an Electron role (edit, zoom, window), so no item
 * opens a window or a URL of its own. Only types come from electron: menu.test.ts runs in Node.
 */
import type { MenuItemConstructorOptions } from 'electron';

export type MenuHandlers = {
  addFiles: () => void;
  addFolder: () => void;
  watchFolder: () => void;
  /** Absent while the app has no export: the item is shown disabled. */
  exportData?: () => void;
  openDataFolder: () => void;
  openLogs: () => void;
  about: () => void;
};

export type MenuOptions = {
  platform: NodeJS.Platform;
  appName: string;
  /** An unpackaged app (development) also gets Reload and the developer tools. */
  development: boolean;
  handlers: MenuHandlers;
};

const separator: MenuItemConstructorOptions = { type: 'separator' };

export function buildMenuTemplate({
  platform,
  appName,
  development,
  handlers,
}: MenuOptions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const about: MenuItemConstructorOptions = {
    id: 'about',
    label: `About ${appName}`,
    click: () => handlers.about(),
  };

  const file: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [
      { id: 'add-files', label: 'Add Files…', accelerator: 'CmdOrCtrl+O', click: () => handlers.addFiles() },
      {
        id: 'add-folder',
        label: 'Add Folder…',
        accelerator: 'CmdOrCtrl+Shift+O',
        click: () => handlers.addFolder(),
      },
      {
        id: 'watch-folder',
        label: 'Watch Folder…',
        accelerator: 'CmdOrCtrl+Shift+W',
        click: () => handlers.watchFolder(),
      },
      separator,
      handlers.exportData
        ? {
            id: 'export',
            label: 'Export…',
            accelerator: 'CmdOrCtrl+Shift+E',
            click: () => handlers.exportData?.(),
          }
        : { id: 'export', label: 'Export…', enabled: false },
      separator,
      mac ? { role: 'close' } : { role: 'quit', label: 'E&xit' },
    ],
  };

  const edit: MenuItemConstructorOptions = {
    label: '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      separator,
      { role: 'selectAll' },
    ],
  };

  const view: MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      ...(development ? [{ role: 'reload' } as const, { role: 'toggleDevTools' } as const, separator] : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };

  const window: MenuItemConstructorOptions = {
    label: '&Window',
    submenu: mac
      ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close' }],
  };

  const help: MenuItemConstructorOptions = {
    role: 'help',
    label: '&Help',
    submenu: [
      { id: 'open-data-folder', label: 'Open Data Folder', click: () => handlers.openDataFolder() },
      { id: 'open-logs', label: 'Open Logs', click: () => handlers.openLogs() },
      ...(mac ? [] : [separator, about]),
    ],
  };

  const appMenu: MenuItemConstructorOptions = {
    label: appName,
    submenu: [
      about,
      separator,
      { role: 'services' },
      separator,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit' },
    ],
  };

  return [...(mac ? [appMenu] : []), file, edit, view, window, help];
}

export type Versions = { app: string; electron: string; chrome: string; node: string; v8: string };

/** The About dialog's text: the app's version and the versions of what it runs on. */
export function aboutText(
  appName: string,
  versions: Versions,
  os: string,
): { message: string; detail: string } {
  return {
    message: `${appName} ${versions.app}`,
    detail: [
      `Electron ${versions.electron}`,
      `Chromium ${versions.chrome}`,
      `Node.js ${versions.node}`,
      `V8 ${versions.v8}`,
      `OS ${os}`,
    ].join('\n'),
  };
}
