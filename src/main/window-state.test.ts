import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_WINDOW_STATE,
  type DisplayArea,
  fitToDisplays,
  loadWindowState,
  parseWindowState,
  saveWindowState,
  WINDOW_STATE_FILE,
} from './window-state.ts';

const laptop: DisplayArea = { workArea: { x: 0, y: 25, width: 1440, height: 875 } };
const right: DisplayArea = { workArea: { x: 1440, y: 0, width: 2560, height: 1400 } };

describe('parseWindowState ([N9] in docs/PACKAGING.md)', () => {
  it('keeps a whole state', () => {
    expect(parseWindowState({ x: 10, y: 40, width: 1200, height: 800, maximized: true })).toEqual({
      x: 10,
      y: 40,
      width: 1200,
      height: 800,
      maximized: true,
    });
    expect(parseWindowState({ width: 900, height: 600 })).toEqual({
      width: 900,
      height: 600,
      maximized: false,
    });
  });

  it.each([
    [null],
    [[]],
    ['{"width":900}'],
    [{ width: 900 }],
    [{ width: 300, height: 200 }],
    [{ width: 'wide', height: 600 }],
    [{ width: 900.5, height: 600 }],
    [{ width: Number.NaN, height: 600 }],
    [{ width: 1e9, height: 600 }],
  ])('refuses %j', (raw) => {
    expect(parseWindowState(raw)).toBeNull();
  });

  it('drops a half or broken position', () => {
    expect(parseWindowState({ x: 10, width: 900, height: 600 })).toEqual({
      width: 900,
      height: 600,
      maximized: false,
    });
    expect(parseWindowState({ x: '10', y: 5, width: 900, height: 600 })?.x).toBeUndefined();
  });
});

describe('fitToDisplays', () => {
  it('keeps a window that is on a display', () => {
    const state = { x: 100, y: 100, width: 1000, height: 700, maximized: false };
    expect(fitToDisplays(state, [laptop])).toEqual(state);
    const onRight = { x: 2000, y: 200, width: 1600, height: 1000, maximized: true };
    expect(fitToDisplays(onRight, [laptop, right])).toEqual(onRight);
  });

  it('centres a window whose display is gone', () => {
    const state = { x: 2000, y: 200, width: 1600, height: 1000, maximized: false };
    expect(fitToDisplays(state, [laptop])).toEqual({ width: 1440, height: 875, maximized: false });
  });

  it('centres a window whose title bar is off every display', () => {
    expect(fitToDisplays({ x: 100, y: -500, width: 1000, height: 700, maximized: false }, [laptop])).toEqual({
      width: 1000,
      height: 700,
      maximized: false,
    });
    expect(
      fitToDisplays({ x: 1400, y: 100, width: 1000, height: 700, maximized: false }, [laptop]).x,
    ).toBeUndefined();
  });

  it('shrinks a window larger than its display and moves it back inside', () => {
    expect(fitToDisplays({ x: 800, y: 600, width: 2000, height: 1200, maximized: false }, [laptop])).toEqual({
      x: 0,
      y: 25,
      width: 1440,
      height: 875,
      maximized: false,
    });
    expect(fitToDisplays({ x: 1000, y: 300, width: 1000, height: 700, maximized: false }, [laptop])).toEqual({
      x: 440,
      y: 200,
      width: 1000,
      height: 700,
      maximized: false,
    });
  });

  it('keeps the state as it is when no display is known', () => {
    const state = { x: 5, y: 5, width: 900, height: 600, maximized: false };
    expect(fitToDisplays(state, [])).toEqual(state);
  });
});

describe('loadWindowState / saveWindowState', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'brain-window-'));
    file = join(dir, 'profile', WINDOW_STATE_FILE);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the defaults without a file', () => {
    expect(loadWindowState(file, [laptop])).toEqual(DEFAULT_WINDOW_STATE);
  });

  it('round-trips the saved bounds, privately', () => {
    saveWindowState(file, { x: 120.4, y: 80, width: 1280, height: 800 }, true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      x: 120,
      y: 80,
      width: 1280,
      height: 800,
      maximized: true,
    });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadWindowState(file, [laptop])).toEqual({
      x: 120,
      y: 80,
      width: 1280,
      height: 800,
      maximized: true,
    });
  });

  it.each([['{not json'], [''], ['null'], ['{"width":10,"height":10}'], ['\u0000\u0001']])(
    'falls back to the defaults on a corrupt file (%j)',
    (text) => {
      saveWindowState(file, { x: 0, y: 0, width: 900, height: 600 }, false);
      writeFileSync(file, text);
      expect(loadWindowState(file, [laptop])).toEqual(DEFAULT_WINDOW_STATE);
    },
  );

  it('falls back to the defaults when the file cannot be read', () => {
    const read = () => {
      throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
    };
    expect(loadWindowState(file, [laptop], read)).toEqual(DEFAULT_WINDOW_STATE);
  });

  it('never saves a state it would refuse to load', () => {
    saveWindowState(file, { x: 0, y: 0, width: 10, height: 10 }, false);
    expect(loadWindowState(file, [laptop])).toEqual(DEFAULT_WINDOW_STATE);
  });
});
