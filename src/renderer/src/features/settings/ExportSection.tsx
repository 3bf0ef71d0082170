/**
 * Settings → Your data ([N16] in docs/PACKAGING.md): export everything this member can see as
 * plain files and JSON lines, into a folder they name or a new dated one in their home folder.
 * The export reports its progress as it goes and says where it went and what it holds.
 */
import { FolderOutput } from 'lucide-react';
import { useState } from 'react';
import type { Events } from '#shared/api/events.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useEvent } from '../../hooks/useEvent.ts';
import { call } from '../../lib/api.ts';
import './settings.css';

const exportTo = (out: string) => call('workspace.export', out.trim() ? { out: out.trim() } : {});

export function ExportSection() {
  const [out, setOut] = useState('');
  const [progress, setProgress] = useState<Events['export.progress'] | null>(null);
  const exporting = useAction(exportTo);
  const [done, setDone] = useState<Awaited<ReturnType<typeof exportTo>> | null>(null);

  useEvent('export.progress', (p) => {
    if (exporting.busy) setProgress(p);
  });

  const start = async () => {
    setDone(null);
    setProgress(null);
    const result = await exporting.run(out);
    setProgress(null);
    if (result) setDone(result);
  };

  const share = progress && progress.total > 0 ? progress.done / progress.total : null;
  const c = done?.counts;
  return (
    <section className="settings-section" aria-labelledby="export-title">
      <h2 id="export-title" className="settings-section__title">
        Your data
      </h2>
      <p className="settings-section__text">
        Export everything you can see — the original files, notes, entities, facts and links, your agents'
        brains with their observations and runs, with who may see them and where they came from — as plain
        files and JSON lines that open without Org Brain.
        <code> brain import</code> puts an export back into an empty workspace.
      </p>
      <div className="setting-row export-row">
        <label className="setting-row__label" htmlFor="export-folder">
          Folder
        </label>
        <input
          id="export-folder"
          className="input mono"
          value={out}
          placeholder="A new “Org Brain export” folder in your home folder"
          onChange={(e) => setOut(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !exporting.busy) void start();
          }}
          disabled={exporting.busy}
        />
        <button
          type="button"
          className="button button--small"
          onClick={() => void start()}
          disabled={exporting.busy}
          aria-busy={exporting.busy}
        >
          <FolderOutput size={14} aria-hidden="true" />
          {exporting.busy ? 'Exporting…' : 'Export everything'}
        </button>
      </div>
      {exporting.busy ? (
        <ProgressBar
          value={share}
          label={progress ? `Exporting ${progress.phase === 'edges' ? 'links' : 'items'}` : 'Exporting'}
        />
      ) : null}
      {exporting.error ? <ErrorNotice error={exporting.error} title="Could not export" /> : null}
      {done && c ? (
        <p className="muted" role="status">
          Exported {c.files} files, {c.notes} notes, {c.entities} entities, {c.facts} facts and {c.edges}{' '}
          links
          {c.agents > 0
            ? `, ${c.agents} agents with ${c.agentVersions} brain versions and ${c.observations} observations`
            : ''}{' '}
          to <span className="mono">{done.folder}</span>.
        </p>
      ) : null}
    </section>
  );
}
