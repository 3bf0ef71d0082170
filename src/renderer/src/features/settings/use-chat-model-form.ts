/**
 * The chat model form's state: the fields, filled from chatModel.get; Save (the key only when one was
 * typed, and cleared from the form once stored); Test connection; removing the stored key.
 * The engine tests the saved settings, so with unsaved changes in the form the test saves them first
 * ("Save and test"): a result about the old address must never read as one about the typed one.
 */
import { type FormEvent, useEffect, useState } from 'react';
import type { ConnectionTestView } from '#shared/api/writeback-types.ts';
import { useStatus } from '../../app/status-context.ts';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';

export function useChatModelForm() {
  const { refreshStatus } = useStatus();
  const config = useCall('chatModel.get', undefined);
  const [baseUrl, setBaseUrl] = useState('');
  const [model, setModel] = useState('');
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [test, setTest] = useState<ConnectionTestView | null>(null);
  const data = config.data;

  useEffect(() => {
    if (!data) return;
    setBaseUrl(data.baseUrl ?? '');
    setModel(data.model ?? '');
  }, [data]);

  const dirty =
    data !== undefined &&
    (baseUrl.trim() !== (data.baseUrl ?? '') || model.trim() !== (data.model ?? '') || key.trim() !== '');
  /** What Test connection would test: the saved settings, or the form's once saved. */
  const testable = dirty ? baseUrl.trim() !== '' && model.trim() !== '' : !!data?.enabled;

  const store = async (): Promise<boolean> => {
    try {
      const next = await call('chatModel.set', { baseUrl, model, ...(key ? { key } : {}) });
      config.setData(next);
      setKey('');
      refreshStatus();
      return true;
    } catch (err) {
      setError(err);
      return false;
    }
  };
  const save = async (e?: FormEvent) => {
    e?.preventDefault();
    setBusy(true);
    setError(null);
    setTest(null);
    try {
      await store();
    } finally {
      setBusy(false);
    }
  };
  const runTest = async () => {
    setBusy(true);
    setError(null);
    setTest(null);
    try {
      if (dirty && !(await store())) return;
      setTest(await call('chatModel.test', {}));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const clearKey = async () => {
    config.setData(await call('chatModel.set', { key: '' }));
  };

  return {
    config,
    data,
    baseUrl,
    setBaseUrl,
    model,
    setModel,
    key,
    setKey,
    busy,
    error,
    test,
    dirty,
    testable,
    save,
    runTest,
    clearKey,
  };
}
