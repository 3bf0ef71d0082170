// A stand-in for the `electron` module, enough of it for the built main process (out/main/index.js)
// to run in plain Node: every call that matters is reported to the test over the IPC channel
// (process.send), and the engine process it forks answers like a real one. See main-process.test.ts.
import { EventEmitter } from 'node:events';
import { join } from 'node:path';

const report = (type, data = {}) => process.send?.({ type, ...data });
const state = JSON.parse(process.env.FAKE_ELECTRON ?? '{}');

class FakeApp extends EventEmitter {
  isPackaged = true;
  #ready = false;
  enableSandbox() {}
  requestSingleInstanceLock() {
    report('single-instance-lock');
    return state.lock !== false;
  }
  quit() {
    report('quit');
  }
  isReady() {
    return this.#ready;
  }
  whenReady() {
    this.#ready = true;
    return Promise.resolve();
  }
  getPath(name) {
    return join(state.userData, name === 'userData' ? '' : name);
  }
  getVersion() {
    return '9.9.9';
  }
  setLoginItemSettings(settings) {
    report('login-item', { settings });
  }
}
export const app = new FakeApp();

class FakeWebContents extends EventEmitter {
  send(channel, ...args) {
    report('window-send', { channel, args });
  }
  isLoading() {
    return false;
  }
  setWindowOpenHandler() {}
}

const windows = [];
export class BrowserWindow extends EventEmitter {
  static getAllWindows() {
    return windows.filter((w) => !w.destroyed);
  }
  constructor(options) {
    super();
    this.options = options;
    this.destroyed = false;
    this.maximized = false;
    this.bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width, height: options.height };
    this.webContents = new FakeWebContents();
    windows.push(this);
    app.emit('web-contents-created', {}, this.webContents);
    const { preload: _, ...webPreferences } = options.webPreferences;
    report('window-created', { options: { ...options, webPreferences } });
    globalThis.__fakeWindow = this;
  }
  loadURL(url) {
    report('load-url', { url });
    setImmediate(() => this.emit('ready-to-show'));
    return Promise.resolve();
  }
  isDestroyed() {
    return this.destroyed;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  show() {
    report('window-show', { maximized: this.maximized });
  }
  focus() {
    report('window-focus');
  }
  maximize() {
    this.maximized = true;
  }
  isMaximized() {
    return this.maximized;
  }
  getNormalBounds() {
    return this.bounds;
  }
}

export const dialog = {
  showOpenDialog: async (...args) => {
    const options = args.at(-1);
    report('open-dialog', { options });
    return { canceled: false, filePaths: state.picked ?? [] };
  },
  showMessageBox: async (...args) => {
    const options = args.at(-1);
    report('message-box', { options });
    return { response: 0 };
  },
};

export const Menu = {
  buildFromTemplate: (template) => ({ template }),
  setApplicationMenu: (menu) => {
    globalThis.__fakeMenu = menu.template;
    const strip = (items) =>
      items.map(({ click, submenu, ...rest }) => ({
        ...rest,
        click: typeof click === 'function',
        ...(Array.isArray(submenu) ? { submenu: strip(submenu) } : {}),
      }));
    report('menu', { template: strip(menu.template) });
  },
};

export const screen = {
  getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
};

const noop = () => {};
export const session = {
  defaultSession: {
    webRequest: { onHeadersReceived: noop },
    setPermissionRequestHandler: noop,
    setPermissionCheckHandler: noop,
    setDevicePermissionHandler: noop,
  },
};

export const shell = {
  openExternal: async (url) => report('open-external', { url }),
  openPath: async (path) => {
    report('open-path', { path });
    return '';
  },
};

export const ipcMain = { handle: (channel) => report('ipc-handle', { channel }) };

export const safeStorage = { isEncryptionAvailable: () => false };

/** The engine process: ready at once; files.add answers a report of what it was given. */
class FakeChild extends EventEmitter {
  constructor(modulePath, options) {
    super();
    this.stdout = new EventEmitter();
    this.stderr = new EventEmitter();
    report('fork', { modulePath, stdio: options.stdio, home: options.env.BRAIN_HOME });
    globalThis.__fakeChild = this;
    setImmediate(() => {
      this.emit('message', { type: 'ready' });
      this.stdout.emit('data', Buffer.from('engine says hello\n'));
    });
  }
  postMessage(message) {
    report('engine-message', { message });
    if (message.type === 'invoke') {
      const data =
        message.name === 'files.add'
          ? {
              added: message.input.paths.map((path, i) => ({
                id: `f_${i}`,
                label: path.split('/').at(-1),
                path,
              })),
              unchanged: [],
              refused: [],
            }
          : {};
      setImmediate(() =>
        this.emit('message', { type: 'result', id: message.id, result: { ok: true, data } }),
      );
    }
    if (message.type === 'shutdown') setImmediate(() => this.emit('exit', 0));
  }
  kill() {}
}
export const utilityProcess = { fork: (modulePath, _args, options) => new FakeChild(modulePath, options) };
