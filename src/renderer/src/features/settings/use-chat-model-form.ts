/**
 * The chat model form's state: the fields, filled from chatModel.get; Save (the key only when one was
 * typed, and cleared from the form once stored); Test connection; removing the stored key.
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

  const save = async (e?: FormEvent) => {
    e?.preventDefault();
    setBusy(true);
    setError(null);
    setTest(null);
    try {
      const next = await call('chatModel.set', { baseUrl, model, ...(key ? { key } : {}) });
      config.setData(next);
      setKey('');
      refreshStatus();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const runTest = async () => {
    setBusy(true);
    setTest(null);
    try {
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
    save,
    runTest,
    clearKey,
  };
}
