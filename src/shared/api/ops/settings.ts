/**
 * The workspace's own settings (kept in its database): whether dropped files are indexed at once.
 * For people on the app and the command line; agents do not change how the workspace works.
 */
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

const SettingsSchema = z.object({
  /** New files (dropped, added, or found in a watched folder) are indexed as soon as they are added. */
  indexOnAdd: z.boolean(),
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
  input: z.object({ indexOnAdd: z.boolean().optional() }).strict(),
  output: SettingsSchema,
  mutates: true,
  notOn: ['agent'],
});

export const SETTINGS_OPERATIONS = [SettingsGet, SettingsSet] as const;
