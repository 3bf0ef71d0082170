import { describe, expect, it, vi } from 'vitest';
import { applyOpenAtLogin, readPreferences } from './login-item.ts';

describe('Open at login ([N11] in docs/PACKAGING.md)', () => {
  it('is off without preferences, and for anything but true', () => {
    const missing = () => {
      throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    };
    expect(readPreferences('/nowhere/preferences.json', missing)).toEqual({ openAtLogin: false });
    for (const text of ['', '{', 'null', '[]', '{"openAtLogin":"yes"}', '{"openAtLogin":1}', '{}']) {
      expect(
        readPreferences('p', () => text),
        text,
      ).toEqual({ openAtLogin: false });
    }
    expect(readPreferences('p', () => '{"openAtLogin":true}')).toEqual({ openAtLogin: true });
    expect(readPreferences('p', () => '{"updateFeed":"https://u.example/"}')).toEqual({
      openAtLogin: false,
      updateFeed: 'https://u.example/',
    });
  });

  it('touches the OS login items only when it is on', () => {
    const set = vi.fn();
    expect(applyOpenAtLogin({ openAtLogin: false }, set)).toBe(false);
    expect(set).not.toHaveBeenCalled();
    expect(applyOpenAtLogin({ openAtLogin: true }, set)).toBe(true);
    expect(set).toHaveBeenCalledWith({ openAtLogin: true });
  });
});
