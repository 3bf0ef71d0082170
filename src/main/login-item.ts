/**
 * The desktop preferences in <userData>/preferences.json ([N11], [N14] in docs/PACKAGING.md):
 * "Open at login" is off unless it says `"openAtLogin": true`, and main touches the OS login items
 * only then; `"updateFeed"` turns updates on (src/main/updates.ts checks it). No electron import.
 */
import { readFileSync } from 'node:fs';

export const PREFERENCES_FILE = 'preferences.json';

export type DesktopPreferences = { openAtLogin: boolean; updateFeed?: unknown };

/** The preferences in `file`; anything missing, unreadable or not `true` is off. */
export function readPreferences(
  file: string,
  read: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): DesktopPreferences {
  try {
    const raw: unknown = JSON.parse(read(file));
    if (typeof raw !== 'object' || raw === null) return { openAtLogin: false };
    const prefs: DesktopPreferences = { openAtLogin: Reflect.get(raw, 'openAtLogin') === true };
    const feed: unknown = Reflect.get(raw, 'updateFeed');
    if (feed !== undefined) prefs.updateFeed = feed;
    return prefs;
  } catch {
    return { openAtLogin: false };
  }
}

/** Calls `setLoginItemSettings` (app.setLoginItemSettings) only when the preference is on. */
export function applyOpenAtLogin(
  prefs: DesktopPreferences,
  setLoginItemSettings: (settings: { openAtLogin: boolean }) => void,
): boolean {
  if (!prefs.openAtLogin) return false;
  setLoginItemSettings({ openAtLogin: true });
  return true;
}
