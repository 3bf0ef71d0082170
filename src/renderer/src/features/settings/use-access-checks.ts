/**
 * The Access checks section's state ([R4] in docs/RETRIEVAL.md): the checks text, filled from the
 * checks the workspace keeps (accessChecks.get); Save keeps it; Run keeps it and runs the kept
 * checks (accessChecks.run), so what ran is what stays. A member who is not the local admin gets
 * `forbidden` from the first read: the section shows why instead of a form.
 */
import { useEffect, useState } from 'react';
import type { AccessCheckReport } from '#shared/api/ops/access.ts';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';

type Failure = { error: unknown; title: string };

export function useAccessChecks() {
  const kept = useCall('accessChecks.get', undefined);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState<'run' | 'save' | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [report, setReport] = useState<AccessCheckReport | null>(null);
  const data = kept.data;

  useEffect(() => {
    if (data) setText(data.text);
  }, [data]);

  const keep = async () => {
    const next = await call('accessChecks.set', { text });
    kept.setData(next);
  };

  const save = async () => {
    setBusy('save');
    setFailure(null);
    try {
      await keep();
    } catch (error) {
      setFailure({ error, title: 'Could not keep the access checks' });
    } finally {
      setBusy(null);
    }
  };

  const run = async () => {
    if (busy || !text.trim()) return;
    setBusy('run');
    setFailure(null);
    try {
      await keep();
      setReport(await call('accessChecks.run', {}));
    } catch (error) {
      setReport(null);
      setFailure({ error, title: 'Could not run the access checks' });
    } finally {
      setBusy(null);
    }
  };

  return {
    forbidden: kept.error?.code === 'forbidden' ? kept.error.message : null,
    loadError: kept.error?.code === 'forbidden' ? null : kept.error,
    ready: data !== undefined,
    isSaved: data !== undefined && data.text === text,
    savedAt: data?.savedAt ?? null,
    text,
    setText,
    busy,
    failure,
    report,
    save,
    run,
  };
}
