/**
 * A checks file's text as cases ([R4] in docs/RETRIEVAL.md): JSON or YAML, a list of cases or
 * `{cases: [...]}`, each checked by the contract's schema. A file that is not that is refused
 * whole, naming the file, the first bad case and its field: no case runs, so a typo never turns
 * into a check that looks at nothing and passes.
 */
import { parse as parseYaml } from 'yaml';
import { AccessCheckCasesSchema } from '#shared/api/ops/access.ts';
import { AppError } from '#shared/errors.ts';

export type CheckCase = {
  as: string;
  question: string;
  mustReach: string[];
  mustNotReach: string[];
};

const FORMAT_HINT = 'a list of {as, question, mustReach, mustNotReach} cases, or {cases: [...]}';

function refused(source: string, what: string): AppError {
  return new AppError('validation-failed', `${source}: ${what}. No check ran.`);
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0];

/** JSON first; YAML (a superset) for the rest. A text that looks like JSON reports JSON's error. */
function parseValue(text: string, source: string): unknown {
  if (!text.trim()) throw refused(source, `is empty: write ${FORMAT_HINT}`);
  let jsonError: unknown;
  try {
    return JSON.parse(text);
  } catch (err) {
    jsonError = err;
  }
  try {
    return parseYaml(text);
  } catch (err) {
    const looksJson = /^\s*[[{]/.test(text) && !/\.ya?ml$/i.test(source);
    throw refused(
      source,
      looksJson ? `is not valid JSON (${messageOf(jsonError)})` : `is not valid YAML (${messageOf(err)})`,
    );
  }
}

function listOf(value: unknown, source: string): unknown {
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && value !== null && 'cases' in value) {
    const extra = Object.keys(value).filter((k) => k !== 'cases');
    if (extra.length) throw refused(source, `unknown field "${extra[0]}" beside cases`);
    return (value as { cases: unknown }).cases;
  }
  throw refused(source, `is not ${FORMAT_HINT}`);
}

/** The cases, checked; else `validation-failed` naming the source, the case and the field. */
function checkCases(list: unknown, source: string): CheckCase[] {
  const parsed = AccessCheckCasesSchema.safeParse(list);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const [index, ...field] = issue?.path ?? [];
  let where = 'the cases';
  if (typeof index === 'number') {
    const as = (list as { as?: unknown }[])[index]?.as;
    where = `case ${index + 1}${typeof as === 'string' ? ` (as ${as.slice(0, 64)})` : ''}`;
    if (field.length) where += `, ${field.map(String).join('.')}`;
  }
  throw refused(source, `${where}: ${issue?.message ?? 'is invalid'}`);
}

/** A checks file's text as cases; `source` names it in every error. */
export function parseChecksText(text: string, source: string): CheckCase[] {
  return checkCases(listOf(parseValue(text, source), source), source);
}
