/**
 * Electron main process: one sandboxed, context-isolated window on the app's own UI, a strict CSP,
 * no navigation away from the app, no new windows, no webviews, and no permissions.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { app, BrowserWindow, type Session, session, shell, type WebContents } from 'electron';
import { EVENT_CHANNEL } from '#shared/api/bridge.ts';
import type { EventName } from '#shared/api/events.ts';
import { EngineProcess } from './engine-process.ts';
import { registerIpc } from './ipc.ts';
import {
  type AppLocation,
  CONTENT_SECURITY_POLICY,
  DEV_CONTENT_SECURITY_POLICY,
  isTrustedUrl,
  openExternalSafely,
  parseDevServerUrl,
  withContentSecurityPolicy,
} from './security.ts';

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

let engine: EngineProcess | null = null;

/** The engine process: its data folder is the workspace in the user data folder (or BRAIN_HOME). */
function startEngine(): EngineProcess {
  const home = process.env.BRAIN_HOME || join(app.getPath('userData'), 'workspace');
  return new EngineProcess(here, { home, version: app.getVersion() }, (event, payload) => {
    if (mainWindow) send(mainWindow, event, payload);
  });
}

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1100,
    height: 720,
    minWidth: 640,
    minHeight: 480,
    show: false,
    title: 'Org Brain',
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
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });

  if (devServerUrl) void window.loadURL(devServerUrl.href);
  else void window.loadURL(location.rendererFileUrl);
  return window;
}

function start(): void {
  app.enableSandbox();
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
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
    hardenSession(session.defaultSession);
    engine = startEngine();
    registerIpc(isTrusted, (name, input) => (engine as EngineProcess).invoke(name, input));
    mainWindow = createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
    });
  });
}

start();
