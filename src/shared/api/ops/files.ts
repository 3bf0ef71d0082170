/**
 * The workspace's files: the list the Files grid shows, adding files or folders by path, indexing
 * them, and the sample workspace. Declared once (src/shared/api/operation.ts) for the app and the
 * `brain` command; agents read files through search and read, and never add from the disk of the
 * machine they run on (`notOn`).
 *
 * Indexing is the same operation everywhere, and where it runs depends on the process: a host that
 * stays up (the app, `brain serve`) queues it for its background runner and answers at once, with
 * progress as `index.progress` events; a one-shot process (the command line) indexes before it
 * answers, with each file's outcome (docs/ARCHITECTURE.md).
 */
import { z } from 'zod';
import { PASSWORD_MAX_CHARS } from '../../password.ts';
import {
  AddReportSchema,
  FileListSchema,
  IndexAnswerSchema,
  SampleAnswerSchema,
  UnlockAnswerSchema,
} from '../app-schemas.ts';
import { defineOperation, type Surface } from '../operation.ts';

const FILE_LIMITS = {
  queryChars: 200,
  filterValues: 50,
  pageRows: 1000,
  pathChars: 4096,
  pathsPerDrop: 10_000,
  idsToIndex: 100_000,
  scopeChars: 80,
  externalIdChars: 200,
} as const;

const NOT_FOR_AGENTS: readonly Surface[] = ['agent'];
const FILE_STATES = ['added', 'indexing', 'indexed', 'failed'] as const;
const FILE_SORT_KEYS = ['name', 'kind', 'size', 'addedBy', 'addedAt', 'scope', 'state'] as const;
const id = z.string().min(1).max(200);

export const FilesList = defineOperation({
  name: 'files.list',
  summary: 'The files of the workspace you can see, filtered and sorted, a page at a time',
  input: z
    .object({
      q: z.string().max(FILE_LIMITS.queryChars).optional(),
      kinds: z.array(z.string().max(40)).max(20).optional(),
      states: z.array(z.enum(FILE_STATES)).max(FILE_STATES.length).optional(),
      scopes: z.array(z.string().max(FILE_LIMITS.scopeChars)).max(FILE_LIMITS.filterValues).optional(),
      sort: z.enum(FILE_SORT_KEYS).default('addedAt'),
      dir: z.enum(['asc', 'desc']).default('desc'),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(FILE_LIMITS.pageRows).default(200),
    })
    .strict(),
  output: FileListSchema,
  mutates: false,
  notOn: NOT_FOR_AGENTS,
});

export const FilesAdd = defineOperation({
  name: 'files.add',
  summary: 'Add files or folders by path (stores the bytes; they become answerable once indexed)',
  input: z
    .object({
      paths: z.array(z.string().min(1).max(FILE_LIMITS.pathChars)).min(1).max(FILE_LIMITS.pathsPerDrop),
      // No default: only a scope the person named is reported when a file already here keeps its own.
      scope: z.string().max(FILE_LIMITS.scopeChars).optional(),
      external_id: z
        .string()
        .trim()
        .min(1)
        .max(FILE_LIMITS.externalIdChars)
        .regex(/^[^\p{Cc}]+$/u, 'an external id has no control characters')
        .optional()
        .describe(
          "the source's own id (a document number, a URL): one file only; adding new bytes under the same id makes its next version (docs/FACTS.md [K16])",
        ),
    })
    .strict(),
  output: AddReportSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

/**
 * `ocr` (docs/OCR.md [O9]): true reads the named files by OCR, every page of a PDF from its scan with
 * its text layer ignored (for scans whose text comes out garbled), on this and every later index
 * of them; false turns that off, back to the text layer. Named PDFs only (a picture is read by OCR anyway).
 */
export const FilesIndex = defineOperation({
  name: 'files.index',
  summary: 'Index files so they can answer questions (every file not indexed yet, or the named ones)',
  input: z
    .object({
      ids: z.array(id).max(FILE_LIMITS.idsToIndex).optional(),
      ocr: z
        .boolean()
        .optional()
        .describe(
          'true: read the named files by OCR from now on, text layers ignored (scans whose text comes out garbled); false: back to the text layer',
        ),
    })
    .strict(),
  output: IndexAnswerSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

/**
 * docs/FORMATS.md [F12]: the password is used for this one extraction, here and now (never queued),
 * and never stored (docs/SECURITY.md [U1]). A wrong one changes nothing: "wrong password for x.pdf".
 */
export const FilesUnlock = defineOperation({
  name: 'files.unlock',
  summary: 'Index a password-protected file with its password (used once, never stored)',
  input: z
    .object({
      id,
      // Not trimmed: a password can be spaces.
      password: z.string().min(1).max(PASSWORD_MAX_CHARS),
    })
    .strict(),
  output: UnlockAnswerSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const SampleLoad = defineOperation({
  name: 'sample.load',
  summary: 'Add the sample workspace (a small handbook) and index it, to try the brain',
  input: z.object({}).strict(),
  output: SampleAnswerSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const FILE_OPERATIONS = [FilesList, FilesAdd, FilesIndex, FilesUnlock, SampleLoad] as const;
