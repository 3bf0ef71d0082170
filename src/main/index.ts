/**
 * Electron main process: one sandboxed, context-isolated window on the app's own UI, a strict CSP,
 * no navigation away from the app, no new windows, no webviews, and no permissions. As a desktop
 * app (docs/PACKAGING.md [N8]–[N11]): one instance, handed the files the OS opens with it; the
 * window's size and place kept; an application menu; "Open at login" only when asked for.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  app,
  BrowserWindow,
  dialog,
  Menu,
  type OpenDialogOptions,
  type Session,
  screen,
  session,
  shell,
  type WebContents,
} from 'electron';
import { EVENT_CHANNEL } from '#shared/api/bridge.ts';
import type { AppCommandEvent, EventName } from '#shared/api/events.ts';
import { EngineProcess } from './engine-process.ts';
import { EngineSupervisor } from './engine-supervisor.ts';
import { exportMessage, exportTarget } from './export.ts';
import { registerIpc } from './ipc.ts';
import { RotatingLog, teeConsole } from './log-file.ts';
import { applyOpenAtLogin, PREFERENCES_FILE, readPreferences } from './login-item.ts';
import { aboutText, buildMenuTemplate } from './menu.ts';
import { filesFromLaunch, handOverFiles } from './open-files.ts';
import {
  type AppLocation,
  CONTENT_SECURITY_POLICY,
  DEV_CONTENT_SECURITY_POLICY,
  isTrustedUrl,
  openExternalSafely,
  parseDevServerUrl,
  withContentSecurityPolicy,
} from './security.ts';
import { checkOnce, isIndexing, type UpdateNotice, type Updater, updateFeed } from './updates.ts';
import { loadWindowState, saveWindowState, WINDOW_STATE_FILE } from './window-state.ts';

// Files this process creates (the profile) are the user's only ([M1] in docs/SECURITY.md); the
// engine process sets the same umask itself (src/engine/processes/engine-host.ts).
process.umask(0o077);

const here = dirname(fileURLToPath(import.meta.url));
const preloadPath = join(here, '../preload/index.cjs');
const rendererIndexPath = join(here, '../renderer/index.html');

/** The dev server is used only for an unpackaged app started by `electron-vite dev`. */
const devServerUrl = app.isPackaged ? null : parseDevServerUrl(process.env.ELECTRON_RENDERER_URL);

const location: AppLocation = {
  rendererFileUrl: pathToFileURL(rendererIndexPath).href,
  devServerUrl: devServerUrl?.href ?? null,
};

const isTrusted = (url: string): boolean => isTrustedUrl(url, location);
const openExternal = (url: string): Promise<boolean> =>
  openExternalSafely(url, (href) => shell.openExternal(href));

const APP_NAME = 'Org Brain';

let mainWindow: BrowserWindow | null = null;

function hardenSession(ses: Session): void {
  const policy = devServerUrl ? DEV_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY;
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders, policy) });
  });
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
}

function hardenContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => {
    if (!isTrusted(event.url)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isTrusted(event.url)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isTrusted(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    void openExternal(url);
    return { action: 'deny' };
  });
}

function send(window: BrowserWindow, event: EventName, payload: unknown): void {
  if (!window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, event, payload);
}

let engine: EngineSupervisor | null = null;

/** The workspace: in the user data folder, or BRAIN_HOME. */
const workspaceHome = (): string => process.env.BRAIN_HOME || join(app.getPath('userData'), 'workspace');

/** The app log in the OS's log folder, rotated by size ([N12]); set once the app is ready. */
let appLog: RotatingLog | null = null;

/**
 * The engine process, on the workspace folder, its output in the app log too, started again when
 * it stops by itself; the window is told ([N13]).
 */
function startEngine(): EngineSupervisor {
  return new EngineSupervisor({
    start: (onExit) =>
      new EngineProcess(
        here,
        { home: workspaceHome(), version: app.getVersion() },
        (event, payload) => {
          if (mainWindow) send(mainWindow, event, payload);
        },
        { onOutput: (text) => appLog?.write('engine', text), onExit },
      ),
    notify: (notice) => {
      console.error(
        `[engine] ${notice.reason} ${notice.kind === 'restarting' ? 'Starting it again.' : 'Giving up.'}`,
      );
      sendCommand({ command: 'engine', ...notice });
    },
  });
}

const windowStateFile = (): string => join(app.getPath('userData'), WINDOW_STATE_FILE);

function createWindow(): BrowserWindow {
  const state = loadWindowState(windowStateFile(), screen.getAllDisplays());
  const window = new BrowserWindow({
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    width: state.width,
    height: state.height,
    minWidth: 640,
    minHeight: 480,
    show: false,
    title: APP_NAME,
    backgroundColor: '#f7f6f3',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => {
    if (state.maximized) window.maximize();
    window.show();
  });
  // The normal bounds (not the maximized ones), saved as the window closes ([N9]).
  window.on('close', () => {
    try {
      saveWindowState(windowStateFile(), window.getNormalBounds(), window.isMaximized());
    } catch (err) {
      console.error('[window] could not save its state:', err);
    }
  });
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });

  if (devServerUrl) void window.loadURL(devServerUrl.href);
  else void window.loadURL(location.rendererFileUrl);
  return window;
}

/** Sends the window an `app.command`, once its page has loaded (it subscribes as it starts). */
function sendCommand(command: AppCommandEvent): void {
  const window = mainWindow;
  if (!window || window.isDestroyed()) return;
  if (window.webContents.isLoading()) window.webContents.once('did-finish-load', () => sendCommand(command));
  else send(window, 'app.command', command);
}

/** Files the OS handed over before the engine ran (the first launch's argv, macOS open-file). */
const pendingFiles: string[] = [];

/** Adds files the OS or the File menu gave, as a drop does, and shows the report ([N8]). */
function addFromDesktop(paths: readonly string[], source: string): void {
  if (!engine) {
    pendingFiles.push(...paths);
    return;
  }
  const running = engine;
  void handOverFiles(paths, source, {
    addFiles: (input) => running.invoke('files.add', input),
    send: sendCommand,
  });
}

function focusWindow(): void {
  // macOS keeps running with no window: a launch that hands over files brings one back.
  if (!mainWindow && app.isReady()) mainWindow = createWindow();
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

const launchFiles = (argv: readonly string[], workingDirectory: string): string[] =>
  filesFromLaunch({ argv, workingDirectory, isPackaged: app.isPackaged, exists: existsSync });

/** The File menu's pickers: native dialogs, then the same add as a drop ([N10]). */
async function pickAndAdd(properties: OpenDialogOptions['properties'], source: string): Promise<void> {
  const options: OpenDialogOptions = { properties };
  const picked = mainWindow
    ? await dialog.showOpenDialog(mainWindow, options)
    : await dialog.showOpenDialog(options);
  if (!picked.canceled) addFromDesktop(picked.filePaths, source);
}

/**
 * File → Export… ([N16]): a folder picked, a new dated export folder inside it, then a message
 * box saying what went where, with Show in Folder.
 */
async function exportData(): Promise<void> {
  const options: OpenDialogOptions = {
    title: 'Export to',
    buttonLabel: 'Export Here',
    properties: ['openDirectory', 'createDirectory', 'promptToCreate'],
  };
  const picked = mainWindow
    ? await dialog.showOpenDialog(mainWindow, options)
    : await dialog.showOpenDialog(options);
  const folder = picked.filePaths[0];
  if (picked.canceled || !folder || !engine) return;
  const result = await engine.invoke('workspace.export', { out: exportTarget(folder) });
  const said = exportMessage(result);
  const box = {
    type: said.type,
    title: 'Export',
    message: said.message,
    detail: said.detail,
    buttons: said.folder ? ['OK', 'Show in Folder'] : ['OK'],
  };
  const { response } = await (mainWindow
    ? dialog.showMessageBox(mainWindow, box)
    : dialog.showMessageBox(box));
  if (response === 1 && said.folder) openFolder(said.folder);
}

/** A folder of the app's (the workspace, the logs, an export just written), opened in the OS file manager. */
function openFolder(path: string): void {
  mkdirSync(path, { recursive: true });
  void shell.openPath(path);
}

function showAbout(): void {
  const { message, detail } = aboutText(
    APP_NAME,
    {
      app: app.getVersion(),
      electron: process.versions.electron ?? '',
      chrome: process.versions.chrome ?? '',
      node: process.versions.node,
      v8: process.versions.v8,
    },
    `${process.platform} ${process.arch}`,
  );
  const options = { type: 'info' as const, title: `About ${APP_NAME}`, message, detail, buttons: ['OK'] };
  void (mainWindow ? dialog.showMessageBox(mainWindow, options) : dialog.showMessageBox(options));
}

function installMenu(): void {
  const template = buildMenuTemplate({
    platform: process.platform,
    appName: APP_NAME,
    development: !app.isPackaged,
    handlers: {
      addFiles: () => void pickAndAdd(['openFile', 'multiSelections'], 'Add Files'),
      addFolder: () => void pickAndAdd(['openDirectory', 'multiSelections'], 'Add Folder'),
      watchFolder: () => sendCommand({ command: 'watch-folder' }),
      exportData: () => void exportData(),
      openDataFolder: () => openFolder(workspaceHome()),
      openLogs: () => openFolder(app.getPath('logs')),
      about: showAbout,
    },
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

/**
 * Updates ([N14]): electron-updater on the configured feed, loaded only then; checked now and
 * daily, downloaded only while nothing is indexed, installed when the app next quits.
 */
function startUpdates(feed: string): void {
  const { autoUpdater } = createRequire(import.meta.url)(
    'electron-updater',
  ) as typeof import('electron-updater');
  autoUpdater.autoDownload = false;
  autoUpdater.autoInstallOnAppQuit = true;
  autoUpdater.setFeedURL({ provider: 'generic', url: feed });
  const updater: Updater = {
    check: async () => {
      const result = await autoUpdater.checkForUpdates();
      return { available: result?.isUpdateAvailable === true, version: result?.updateInfo.version };
    },
    download: async () => {
      await autoUpdater.downloadUpdate();
    },
  };
  const indexing = async () => {
    const status = await engine?.invoke('status.get', {});
    return isIndexing(status?.ok ? (status.data as { queue?: { queued: number; running: number } }) : null);
  };
  const notify = (notice: UpdateNotice) => {
    if (notice.kind === 'failed') console.warn(`[updates] ${notice.message}`);
    else console.info(`[updates] ${notice.version} downloaded: installed when Org Brain next quits`);
    sendCommand({ command: 'update', ...notice });
  };
  const run = async () => {
    const next = await checkOnce(updater, indexing, notify);
    setTimeout(() => void run(), next).unref();
  };
  void run();
}

function start(): void {
  app.enableSandbox();
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // A second launch (files dropped on the icon, "Open with") hands its files here and quits ([N8]).
  app.on('second-instance', (_event, argv, workingDirectory) => {
    focusWindow();
    addFromDesktop(launchFiles(argv, workingDirectory), 'Opened with Org Brain');
  });
  // macOS: files dropped on the Dock icon, before or after the app is ready.
  app.on('open-file', (event, path) => {
    event.preventDefault();
    addFromDesktop([path], 'Opened with Org Brain');
  });
  pendingFiles.push(...launchFiles(process.argv, process.cwd()));
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
  app.on('will-quit', (event) => {
    if (!engine) return;
    event.preventDefault();
    const stopping = engine;
    engine = null;
    void stopping.stop().finally(() => app.quit());
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  void app.whenReady().then(() => {
    appLog = new RotatingLog(app.getPath('logs'));
    teeConsole(appLog);
    console.info(`${APP_NAME} ${app.getVersion()} starting (Electron ${process.versions.electron ?? '?'})`);
    hardenSession(session.defaultSession);
    const preferences = readPreferences(join(app.getPath('userData'), PREFERENCES_FILE));
    applyOpenAtLogin(preferences, (settings) => app.setLoginItemSettings(settings));
    installMenu();
    engine = startEngine();
    registerIpc(isTrusted, (name, input) => (engine as EngineSupervisor).invoke(name, input));
    mainWindow = createWindow();
    addFromDesktop(pendingFiles.splice(0), 'Opened with Org Brain');
    const feed = app.isPackaged ? updateFeed(preferences.updateFeed, process.env) : null;
    if (feed) startUpdates(feed);
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
    });
  });
}

start();
