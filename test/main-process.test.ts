/**
 * The built main process (out/main/index.js; CI builds before testing) running in plain Node over
 * a stand-in for the electron module (test/main-process/fake-electron.mjs), since this machine
 * has no Electron binary: what it wires up as a desktop app (docs/PACKAGING.md [N8]–[N13]).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { firstMatch, until } from '#engine/testing/until.ts';

const ENTRY = resolve('out/main/index.js');
type Report = { type: string; [key: string]: unknown };

describe.runIf(existsSync(ENTRY))('the built main process as a desktop app', () => {
  let dir: string;
  let child: ChildProcess | null = null;
  let reports: Report[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'brain-main-'));
    reports = [];
  });
  afterEach(() => {
    child?.kill();
    child = null;
    rmSync(dir, { recursive: true, force: true });
  });

  function start(options: { argv?: string[]; picked?: string[]; lock?: boolean } = {}) {
    const userData = join(dir, 'userData');
    child = fork(resolve('test/main-process/run-main.mjs'), options.argv ?? [], {
      cwd: dir,
      env: {
        ...process.env,
        MAIN_ENTRY: pathToFileURL(ENTRY).href,
        BRAIN_HOME: '',
        FAKE_ELECTRON: JSON.stringify({ userData, picked: options.picked, lock: options.lock }),
      },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.on('message', (m) => reports.push(m as Report));
    return userData;
  }
  const waitFor = (type: string, pred: (r: Report) => boolean = () => true) =>
    firstMatch(
      reports,
      (r) => r.type === type && pred(r),
      `${type} (got ${reports.map((r) => r.type).join(', ')})`,
    );
  const sends = () => reports.filter((r) => r.type === 'window-send').map((r) => r.args as unknown[]);
  const appCommands = () =>
    sends()
      .filter((a) => a[0] === 'app.command')
      .map((a) => a[1] as Record<string, unknown>);
  const invokes = (name: string) =>
    reports
      .filter((r) => r.type === 'engine-message')
      .map((r) => r.message as { type: string; name?: string; input?: unknown })
      .filter((m) => m.type === 'invoke' && m.name === name)
      .map((m) => m.input);

  it('opens one sandboxed window with the default size, the menu, the engine on the workspace, and a log', async () => {
    const userData = start();
    const created = await waitFor('window-created');
    expect(created.options).toMatchObject({
      width: 1100,
      height: 720,
      title: 'Org Brain',
      webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false },
    });
    const fork = await waitFor('fork');
    expect(fork.home).toBe(join(userData, 'workspace'));
    expect(fork.stdio).toBe('pipe');
    const menu = (await waitFor('menu')).template as { label: string }[];
    expect(menu.map((m) => m.label)).toEqual(['&File', '&Edit', '&View', '&Window', '&Help']);
    expect(reports.some((r) => r.type === 'login-item')).toBe(false);
    await until(
      () =>
        existsSync(join(userData, 'logs/main.log')) &&
        readFileSync(join(userData, 'logs/main.log'), 'utf8').includes('engine says hello'),
      Boolean,
      { label: 'the engine output in the log' },
    );
    expect(readFileSync(join(userData, 'logs/main.log'), 'utf8')).toContain('Org Brain 9.9.9 starting');
  });

  it('adds the files a launch names, and those a second launch hands over, with the report to the window', async () => {
    const first = join(dir, 'first.md');
    const second = join(dir, 'second.pdf');
    writeFileSync(first, '# one');
    writeFileSync(second, 'two');
    start({ argv: ['first.md', '--flag', 'missing.txt'] });
    await until(() => appCommands().length > 0, Boolean, { label: 'the first report' });
    expect(invokes('files.add')).toEqual([{ paths: [first] }]);
    child?.send({
      do: 'emit',
      event: 'second-instance',
      args: [['/opt/Org Brain/org-brain', '--x', second], dir],
    });
    await waitFor('window-focus');
    await until(() => appCommands().length === 2, Boolean, { label: 'the second report' });
    expect(invokes('files.add')).toEqual([{ paths: [first] }, { paths: [second] }]);
    expect(appCommands()[1]).toEqual({
      command: 'added',
      source: 'Opened with Org Brain',
      report: { added: [{ id: 'f_0', label: 'second.pdf', path: second }], unchanged: [], refused: [] },
    });
  });

  it('runs the File menu through native pickers and the Help menu through native dialogs', async () => {
    const picked = join(dir, 'picked.txt');
    writeFileSync(picked, 'x');
    const userData = start({ picked: [picked] });
    await waitFor('menu');
    child?.send({ do: 'click', id: 'add-files' });
    expect((await waitFor('open-dialog')).options).toEqual({ properties: ['openFile', 'multiSelections'] });
    await until(() => invokes('files.add').length === 1, Boolean, { label: 'files.add' });
    expect(invokes('files.add')).toEqual([{ paths: [picked] }]);
    child?.send({ do: 'click', id: 'watch-folder' });
    await until(() => appCommands().some((c) => c.command === 'watch-folder'), Boolean, {
      label: 'watch-folder',
    });
    child?.send({ do: 'click', id: 'about' });
    const about = (await waitFor('message-box')).options as { message: string; detail: string };
    expect(about.message).toBe('Org Brain 9.9.9');
    expect(about.detail).toContain('Node.js');
    child?.send({ do: 'click', id: 'open-data-folder' });
    expect((await waitFor('open-path')).path).toBe(join(userData, 'workspace'));
    expect(reports.filter((r) => r.type === 'window-created')).toHaveLength(1);
  });

  it('saves the window state on close and opens the next window with it', async () => {
    const userData = start();
    await waitFor('window-show');
    child?.send({ do: 'close-window', bounds: { x: 50, y: 60, width: 1300, height: 850 }, maximized: true });
    const file = join(userData, 'window-state.json');
    await until(() => existsSync(file), Boolean, { label: 'window-state.json' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      x: 50,
      y: 60,
      width: 1300,
      height: 850,
      maximized: true,
    });
    child?.kill();
    reports = [];
    start();
    expect((await waitFor('window-created')).options).toMatchObject({
      x: 50,
      y: 60,
      width: 1300,
      height: 850,
    });
    expect((await waitFor('window-show')).maximized).toBe(true);
  });

  it('turns Open at login on only when preferences.json asks', async () => {
    const userData = join(dir, 'userData');
    mkdirSync(userData, { recursive: true });
    writeFileSync(join(userData, 'preferences.json'), '{"openAtLogin": true}');
    start();
    expect((await waitFor('login-item')).settings).toEqual({ openAtLogin: true });
  });

  it('quits at once when another instance holds the lock', async () => {
    start({ lock: false });
    await waitFor('quit');
    await waitFor('main-loaded');
    expect(reports.some((r) => r.type === 'window-created' || r.type === 'fork')).toBe(false);
  });

  it('starts the engine again when it crashes, and tells the window', async () => {
    start();
    await waitFor('fork');
    await waitFor('window-show');
    child?.send({ do: 'crash-engine' });
    await until(() => reports.filter((r) => r.type === 'fork').length === 2, Boolean, {
      label: 'a second engine',
    });
    expect(appCommands()).toContainEqual({
      command: 'engine',
      kind: 'restarting',
      reason: 'The engine process stopped (exit code 9).',
      attempt: 1,
    });
  });
});
