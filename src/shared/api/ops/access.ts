/**
 * Access checks ([R4] in docs/RETRIEVAL.md): an admin's cases `{as, question, mustReach,
 * mustNotReach}`, each run as the real search as that member over the local store and answered as
 * a pass/fail table. For people (Settings → Access checks, `brain access-check FILE`), never for
 * agents: a check searches as other members, which is the local admin's tool ([R3]). The checks
 * the Settings page keeps are the app's (`accessChecks.get`/`set`); the command line reads a file.
 */
import { z } from 'zod';
import { defineOperation, type Surface } from '../operation.ts';

const ACCESS_CHECK_LIMITS = {
  cases: 200,
  refsPerList: 100,
  refChars: 4096,
  questionChars: 2000,
  textChars: 500_000,
  sourceChars: 4096,
} as const;

const NOT_FOR_AGENTS: readonly Surface[] = ['agent'];
/** The kept checks are the Settings page's; the command line runs files (or the kept ones). */
const APP_ONLY: readonly Surface[] = ['agent', 'cli'];

const fileRef = z
  .string()
  .trim()
  .min(1, 'is empty: name a file by its id (f_…), its path or its name')
  .max(ACCESS_CHECK_LIMITS.refChars);
const fileRefs = z
  .array(fileRef)
  .max(ACCESS_CHECK_LIMITS.refsPerList, `at most ${ACCESS_CHECK_LIMITS.refsPerList} files a list`)
  .default([]);

/** One case. Strict: a misspelt field (`mustreach`) is an error, not a list that checks nothing. */
const AccessCheckCaseSchema = z
  .object({
    as: z
      .string()
      .regex(/^[A-Za-z0-9._@-]{1,64}$/, 'is not a member id (letters, digits, . _ @ -, at most 64)'),
    question: z
      .string()
      .trim()
      .min(1, 'is empty: write what the member would ask')
      .max(ACCESS_CHECK_LIMITS.questionChars),
    mustReach: fileRefs,
    mustNotReach: fileRefs,
  })
  .strict()
  .refine((c) => c.mustReach.length + c.mustNotReach.length > 0, {
    message: 'names no file: a case needs mustReach or mustNotReach, or it passes by itself',
    path: ['mustReach'],
  });

export type AccessCheckCase = z.input<typeof AccessCheckCaseSchema>;

export const AccessCheckCasesSchema = z
  .array(AccessCheckCaseSchema)
  .min(1, 'holds no case')
  .max(ACCESS_CHECK_LIMITS.cases, `at most ${ACCESS_CHECK_LIMITS.cases} cases a run`);

const AccessCheckResultSchema = z.object({
  as: z.string(),
  question: z.string(),
  pass: z.boolean(),
  /** The case's files the member's search reached, as the case names them. */
  reached: z.array(z.string()),
  /** mustReach files it did not reach. */
  missing: z.array(z.string()),
  /** mustNotReach files it reached. */
  leaked: z.array(z.string()),
  /** Why the case could not be judged (an unknown file or member): it fails. */
  error: z.string().optional(),
});

const AccessCheckReportSchema = z.object({
  cases: z.array(AccessCheckResultSchema),
  passed: z.number().int(),
  failed: z.number().int(),
  /** Whether every search was hybrid; false: keyword only (no embedding model). */
  semantic: z.boolean(),
});

export type AccessCheckReport = z.infer<typeof AccessCheckReportSchema>;

const KeptChecksSchema = z.object({
  /** The checks as the admin wrote them (JSON or YAML), '' when none are kept. */
  text: z.string(),
  savedAt: z.string().nullable(),
});

export const AccessChecksRun = defineOperation({
  name: 'accessChecks.run',
  summary: "Run access checks: each case's question searched as its member, a pass/fail table",
  input: z
    .object({
      /** The cases themselves. */
      cases: AccessCheckCasesSchema.optional(),
      /** Or a checks file's text (JSON or YAML), named in errors by `source`. */
      text: z.string().max(ACCESS_CHECK_LIMITS.textChars).optional(),
      source: z.string().trim().min(1).max(ACCESS_CHECK_LIMITS.sourceChars).optional(),
    })
    .strict()
    .refine((i) => i.cases === undefined || i.text === undefined, {
      message: 'give cases or a text, not both (neither: the checks kept in Settings)',
      path: ['text'],
    }),
  output: AccessCheckReportSchema,
  mutates: false,
  notOn: NOT_FOR_AGENTS,
});

export const AccessChecksGet = defineOperation({
  name: 'accessChecks.get',
  summary: 'The access checks kept in the workspace (Settings → Access checks)',
  input: z.object({}).strict(),
  output: KeptChecksSchema,
  mutates: false,
  notOn: APP_ONLY,
});

export const AccessChecksSet = defineOperation({
  name: 'accessChecks.set',
  summary: 'Keep access checks in the workspace (kept as written; checked when they run)',
  input: z.object({ text: z.string().max(ACCESS_CHECK_LIMITS.textChars) }).strict(),
  output: KeptChecksSchema,
  mutates: true,
  notOn: APP_ONLY,
});

export const ACCESS_OPERATIONS = [AccessChecksRun, AccessChecksGet, AccessChecksSet] as const;
