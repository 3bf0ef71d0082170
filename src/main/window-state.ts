/**
 * The main window's size and position, kept in <userData>/window-state.json between launches
 * ([N9] in docs/PACKAGING.md). Reading never fails: a missing, corrupt or off-screen state gives
 * the defaults (or the saved size, centred). No electron import: window-state.test.ts runs in Node.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type Rect = { x: number; y: number; width: number; height: number };
/** What BrowserWindow is opened with: no x and y means "centred on the primary display". */
export type WindowState = { x?: number; y?: number; width: number; height: number; maximized: boolean };
/** A display as screen.getAllDisplays() lists it: only its work area (without task bars and docks). */
export type DisplayArea = { workArea: Rect };

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_WINDOW_STATE: WindowState = { width: 1100, height: 720, maximized: false };
const MIN_WINDOW_SIZE = { width: 640, height: 480 } as const;
/** How much of the window (its top strip, where the title bar is) must be on a display to keep x and y. */
const VISIBLE = { width: 120, height: 40 } as const;
const LIMIT = 100_000;

const isInt = (v: unknown): v is number => Number.isInteger(v) && Math.abs(v as number) <= LIMIT;

/** The saved state if `raw` is one (sizes at least the minimum), else null. */
export function parseWindowState(raw: unknown): WindowState | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  if (!isInt(r.width) || !isInt(r.height)) return null;
  if (r.width < MIN_WINDOW_SIZE.width || r.height < MIN_WINDOW_SIZE.height) return null;
  const state: WindowState = { width: r.width, height: r.height, maximized: r.maximized === true };
  if (isInt(r.x) && isInt(r.y)) {
    state.x = r.x;
    state.y = r.y;
  }
  return state;
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return { width: Math.max(0, width), height: Math.max(0, height) };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi));

/**
 * The state fitted to the displays there are now: the window's top strip must lie on some display's
 * work area, else x and y are dropped (the window opens centred). The size never exceeds that work
 * area (the first display's when centred), and the window is moved back inside it.
 */
export function fitToDisplays(state: WindowState, displays: readonly DisplayArea[]): WindowState {
  const areas = displays.map((d) => d.workArea).filter((a) => a.width > 0 && a.height > 0);
  if (areas.length === 0) return { ...state };
  const shrink = (area: Rect) => ({
    width: Math.max(Math.min(state.width, area.width), Math.min(MIN_WINDOW_SIZE.width, area.width)),
    height: Math.max(Math.min(state.height, area.height), Math.min(MIN_WINDOW_SIZE.height, area.height)),
  });
  if (state.x !== undefined && state.y !== undefined) {
    const top: Rect = { x: state.x, y: state.y, width: state.width, height: VISIBLE.height };
    const home = areas.find((area) => {
      const o = overlap(top, area);
      return o.width >= Math.min(VISIBLE.width, state.width) && o.height >= VISIBLE.height;
    });
    if (home) {
      const size = shrink(home);
      return {
        x: clamp(state.x, home.x, home.x + home.width - size.width),
        y: clamp(state.y, home.y, home.y + home.height - size.height),
        ...size,
        maximized: state.maximized,
      };
    }
  }
  return { ...shrink(areas[0] as Rect), maximized: state.maximized };
}

/** The state to open the window with: the saved one fitted to the displays, or the defaults. */
export function loadWindowState(
  file: string,
  displays: readonly DisplayArea[],
  read: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): WindowState {
  let saved: WindowState | null = null;
  try {
    saved = parseWindowState(JSON.parse(read(file)));
  } catch {
    saved = null;
  }
  return fitToDisplays(saved ?? DEFAULT_WINDOW_STATE, displays);
}

/** Saves the state: written beside the file and renamed over it, so a crash leaves the old one whole. */
export function saveWindowState(file: string, bounds: Rect, maximized: boolean): void {
  const state: WindowState = {
    x: Math.round(bounds.x),
    y: Math.round(bounds.y),
    width: Math.round(bounds.width),
    height: Math.round(bounds.height),
    maximized,
  };
  if (!parseWindowState(state)) return;
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}
