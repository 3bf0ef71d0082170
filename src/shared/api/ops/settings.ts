/**
 * The workspace's own settings (kept in its database): whether dropped files are indexed at once.
 * For people on the app and the command line; agents do not change how the workspace works.
 */
import { z } from 'zod';
import { OCR_LANGUAGES_MAX } from '#shared/constants.ts';
import { defineOperation } from '../operation.ts';

const SettingsSchema = z.object({
  /** New files (dropped, added, or found in a watched folder) are indexed as soon as they are added. */
  indexOnAdd: z.boolean(),
  /** What scans and pictures are read in, by OCR (docs/OCR.md [O2]): tesseract codes, the first the main one ("rus", "eng"). */
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
        .array(z.string().regex(/^[a-z_]{3,12}$/, 'an OCR language is a code such as "eng" or "chi_sim"'))
        .min(1, 'name at least one OCR language')
        .max(OCR_LANGUAGES_MAX, `OCR reads at most ${OCR_LANGUAGES_MAX} languages at once (docs/OCR.md [O2])`)
        .refine((codes) => new Set(codes).size === codes.length, 'an OCR language is named twice')
        .optional(),
    })
    .strict(),
  output: SettingsSchema,
  mutates: true,
  notOn: ['agent'],
});

export const SETTINGS_OPERATIONS = [SettingsGet, SettingsSet] as const;
