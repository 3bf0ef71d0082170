/**
 * The workspace's own settings (kept in its database): whether dropped files are indexed at once.
 * For people on the app and the command line; agents do not change how the workspace works.
 */
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

const SettingsSchema = z.object({
  /** New files (dropped, added, or found in a watched folder) are indexed as soon as they are added. */
  indexOnAdd: z.boolean(),
  /** What scans and pictures are read in, by OCR (docs/OCR.md [O2]): tesseract codes, "eng". */
  ocrLanguages: z.array(z.string()),
  /** The OCR languages whose data is installed: the only ones `ocrLanguages` can name. */
  ocrLanguagesAvailable: z.array(z.string()),
  /** The workspace data folder. */
  dataFolder: z.string(),
  /** The member this surface acts as. */
  user: z.string(),
});

export const SettingsGet = defineOperation({
  name: 'settings.get',
  summary: "The workspace's settings",
  input: z.object({}).strict(),
  output: SettingsSchema,
  mutates: false,
  notOn: ['agent'],
});

export const SettingsSet = defineOperation({
  name: 'settings.set',
  summary: "Change the workspace's settings",
  input: z
    .object({
      indexOnAdd: z.boolean().optional(),
      ocrLanguages: z
        .array(z.string().regex(/^[a-z_]{3,12}$/))
        .length(1, 'OCR reads one language at a time for now (docs/OCR.md [O2])')
        .optional(),
    })
    .strict(),
  output: SettingsSchema,
  mutates: true,
  notOn: ['agent'],
});

export const SETTINGS_OPERATIONS = [SettingsGet, SettingsSet] as const;
