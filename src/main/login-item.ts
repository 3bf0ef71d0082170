/**
 * "Open at login" ([P11] in docs/PACKAGING.md): off unless <userData>/preferences.json says
 * `"openAtLogin": true`, and main touches the OS login items only then. No electron import.
 */
import { readFileSync } from 'node:fs';

export const PREFERENCES_FILE = 'preferences.json';

export type DesktopPreferences = { openAtLogin: boolean };

/** The preferences in `file`; anything missing, unreadable or not `true` is off. */
export function readPreferences(
  file: string,
  read: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): DesktopPreferences {
  try {
    const raw: unknown = JSON.parse(read(file));
    const on = typeof raw === 'object' && raw !== null && Reflect.get(raw, 'openAtLogin') === true;
    return { openAtLogin: on };
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
