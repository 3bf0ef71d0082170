/**
 * The chat model: any OpenAI-compatible endpoint (Ollama, LM Studio, llama.cpp, vLLM, hosted
 * APIs). Base URL and model name are workspace settings; the key is in the key store, never in the
 * database. Nothing is enabled until the user sets a base URL and a model name: Ollama's local
 * address is only suggested.
 */
import { AppError } from '#shared/errors.ts';
import type { Db } from '../db/driver.ts';
import { keyStoreFor } from './key-store.ts';

const SUGGESTED_BASE_URL = 'http://127.0.0.1:11434/v1';
export const MODEL_SETTING_KEYS = ['model.baseUrl', 'model.name', 'model.key'] as const;
export type ModelSettingKey = (typeof MODEL_SETTING_KEYS)[number];

export type ModelConfig = { baseUrl: string | null; model: string | null };
/** What a pass needs to call the model; null fields mean "not configured". */
export type ModelAccess = { baseUrl: string; model: string; key: string | null };

export type ModelConfigView = {
  baseUrl: string | null;
  model: string | null;
  hasKey: boolean;
  keyStorage: 'file' | 'safeStorage';
  suggestedBaseUrl: string;
  enabled: boolean;
  /** Why chat, write-back and the model audit are off, when they are. */
  reason: string | null;
};

/** A workspace setting, trimmed; null when unset or blank. */
export function getSetting(db: Db, key: string): string | null {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as
    | { value: string }
    | undefined;
  return row?.value.trim() || null;
}

/** Sets a workspace setting; null deletes it. */
export function putSetting(db: Db, key: string, value: string | null): void {
  if (value === null) db.prepare('DELETE FROM settings WHERE key = ?').run(key);
  else
    db.prepare(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
}

export function readModelConfig(db: Db): ModelConfig {
  return { baseUrl: getSetting(db, 'model.baseUrl'), model: getSetting(db, 'model.name') };
}

function normaliseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new AppError('validation-failed', `"${value}" is not a URL; for Ollama use ${SUGGESTED_BASE_URL}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AppError(
      'validation-failed',
      `The model's base URL must be http or https (got ${url.protocol}).`,
    );
  return url.toString().replace(/\/+$/, '');
}

/** Sets one of model.baseUrl, model.name, model.key; an empty value clears it. */
export async function setModelSetting(db: Db, home: string, key: string, value: string): Promise<void> {
  const v = value.trim();
  if (key === 'model.baseUrl') putSetting(db, key, v ? normaliseBaseUrl(v) : null);
  else if (key === 'model.name') {
    if (v.length > 200) throw new AppError('validation-failed', 'The model name is over 200 characters.');
    putSetting(db, key, v || null);
  } else if (key === 'model.key') await keyStoreFor(home).write(v || null);
  else
    throw new AppError('validation-failed', `Unknown setting ${key}: use ${MODEL_SETTING_KEYS.join(', ')}.`);
}

export function offReason(config: ModelConfig): string | null {
  if (!config.baseUrl && !config.model)
    return `no chat model is configured (suggested: Ollama at ${SUGGESTED_BASE_URL})`;
  if (!config.baseUrl) return 'the chat model has no base URL';
  if (!config.model) return 'the chat model has no model name';
  return null;
}

export async function modelConfigView(db: Db, home: string): Promise<ModelConfigView> {
  const config = readModelConfig(db);
  const store = keyStoreFor(home);
  let hasKey = false;
  try {
    hasKey = (await store.read()) !== null;
  } catch {
    hasKey = false;
  }
  const reason = offReason(config);
  return {
    ...config,
    hasKey,
    keyStorage: store.kind,
    suggestedBaseUrl: SUGGESTED_BASE_URL,
    enabled: reason === null,
    reason,
  };
}

/** The model to call, or null when none is configured. A key that cannot be read is left out. */
export async function resolveModel(db: Db, home: string): Promise<ModelAccess | null> {
  const config = readModelConfig(db);
  if (!config.baseUrl || !config.model) return null;
  let key: string | null = null;
  try {
    key = await keyStoreFor(home).read();
  } catch {
    key = null;
  }
  return { baseUrl: config.baseUrl, model: config.model, key };
}
