/**
 * Parity rows for the workspace's settings (src/shared/api/ops/settings.ts): read, changed and put
 * back alike on IPC, HTTP and the command line (no MCP tool: agents do not change settings).
 */
import type { Case, ParityWorld } from './case.ts';

export function settingsCases(_w: ParityWorld): Case[] {
  return [
    { name: 'the settings', op: 'settings.get', input: {}, cli: ['settings'] },
    {
      name: 'indexing on add turned on',
      op: 'settings.set',
      input: { indexOnAdd: true },
      cli: ['settings', 'set', '--index-on-add', 'on'],
    },
    {
      name: 'and off again',
      op: 'settings.set',
      input: { indexOnAdd: false },
      cli: ['settings', 'set', '--index-on-add', 'off'],
    },
    {
      name: 'a value that is neither on nor off',
      op: 'settings.set',
      input: { indexOnAdd: 'maybe' },
      cli: ['settings', 'set', '--index-on-add', 'maybe'],
    },
    {
      name: 'the OCR language set to an installed one (docs/OCR.md [O2])',
      op: 'settings.set',
      input: { ocrLanguages: ['eng'] },
      cli: ['settings', 'set', '--ocr-language', 'eng'],
    },
    {
      name: 'two OCR languages, the main one first (docs/OCR.md [O2])',
      op: 'settings.set',
      input: { ocrLanguages: ['rus', 'eng'] },
      cli: ['settings', 'set', '--ocr-language', 'rus+eng'],
    },
    {
      name: 'more OCR languages than one run reads',
      op: 'settings.set',
      input: { ocrLanguages: ['rus', 'eng', 'deu', 'fra'] },
      cli: ['settings', 'set', '--ocr-language', 'rus,eng,deu,fra'],
    },
    {
      name: 'an OCR language named twice',
      op: 'settings.set',
      input: { ocrLanguages: ['eng', 'eng'] },
      cli: ['settings', 'set', '--ocr-language', 'eng+eng'],
    },
    {
      name: 'an OCR language whose data is not installed',
      op: 'settings.set',
      input: { ocrLanguages: ['tlh'] },
      cli: ['settings', 'set', '--ocr-language', 'tlh'],
    },
    // The command line has no option for it (commander refuses it as a usage error, exit 2).
    { name: 'a setting that does not exist', op: 'settings.set', input: { theme: 'dark' }, cli: [] },
  ];
}
