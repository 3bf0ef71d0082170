import { Bot, Cloud, CloudOff, Cpu, Database, HardDrive, Loader2, Unplug } from 'lucide-react';
import type { SyncStatusView } from '#shared/api/types.ts';
import { ProgressBar } from '../components/ProgressBar.tsx';
import { Tip } from '../components/Tip.tsx';
import { formatDateTime, formatRelative, plural } from '../lib/format.ts';
import { type QueueView, useStatus } from './status-context.ts';
import './statusbar.css';

/** Indexing queue, semantic search, the chat model and the data folder; always in view. */
export function StatusBar({ onOpenSettings }: { onOpenSettings: () => void }) {
  const { status, queue, connection } = useStatus();
  const model = status?.model;
  const running = queue.total > 0 && queue.done < queue.total;
  const waiting = (status?.queue.queued ?? 0) + (status?.queue.running ?? 0);

  let queueText: string;
  if (running) queueText = `Indexing ${queue.done.toLocaleString()} of ${queue.total.toLocaleString()}`;
  else if (queue.total > 0) queueText = batchText(queue);
  else if (waiting > 0) queueText = `Indexing queue: ${plural(waiting, 'file')}`;
  else if (status) {
    const { indexed, notIndexed, failed } = status.counts;
    queueText = `${indexed.toLocaleString()} indexed · ${notIndexed.toLocaleString()} not indexed`;
    if (failed > 0) queueText += ` · ${plural(failed, 'failed', 'failed')}`;
  } else queueText = '…';

  const semantic =
    model?.status === 'on'
      ? 'Semantic search on'
      : model?.status === 'downloading'
        ? `Semantic search: downloading ${model.progress !== undefined ? `${Math.round(model.progress * 100)} %` : '…'}`
        : model
          ? 'Semantic search off'
          : '';

  return (
    <footer className="statusbar">
      <div className="statusbar__item statusbar__queue" role="status" aria-label="Indexing queue">
        {running || waiting > 0 ? (
          <Loader2 size={12} className="spin" aria-hidden="true" />
        ) : (
          <Database size={12} aria-hidden="true" />
        )}
        <span>{queueText}</span>
        {running && queue.last ? (
          <span className="statusbar__label ellipsis">
            {queue.last.phase === 'indexing' && queue.last.pages
              ? `${queue.last.label}, page ${queue.last.page} of ${queue.last.pages}`
              : queue.last.label}
          </span>
        ) : null}
        {running ? (
          <span className="statusbar__progress">
            <ProgressBar value={queue.total ? queue.done / queue.total : null} label="Indexing progress" />
          </span>
        ) : null}
      </div>
      {model ? (
        <Tip
          content={
            model.status === 'off' ? (model.reason ?? 'The model is missing') : `Model ${model.modelId}`
          }
        >
          <button
            type="button"
            className={`statusbar__item statusbar__button statusbar__semantic is-${model.status}`}
            onClick={onOpenSettings}
          >
            <Cpu size={12} aria-hidden="true" className="statusbar__icon" />
            <span>{semantic}</span>
            {model.status === 'off' && model.reason ? (
              <span className="statusbar__why ellipsis">· {model.reason}</span>
            ) : null}
          </button>
        </Tip>
      ) : null}
      {status ? (
        <span className="statusbar__item statusbar__chat" title={status.chatModel.reason}>
          <Bot size={12} aria-hidden="true" />
          <span>
            {status.chatModel.status === 'on'
              ? `Chat model: ${status.chatModel.model ?? 'on'}`
              : 'Chat model off: answers are the cited passages'}
          </span>
        </span>
      ) : null}
      {status ? <SyncItem sync={status.sync} onOpenSettings={onOpenSettings} /> : null}
      {connection !== 'open' ? (
        <span className="statusbar__item statusbar__lost" role="alert">
          <Unplug size={12} aria-hidden="true" />
          {connection === 'lost' ? 'Disconnected from Org Brain' : 'Reconnecting…'}
        </span>
      ) : null}
      <span className="statusbar__spacer" />
      {status ? (
        <span
          className="statusbar__item statusbar__folder mono ellipsis"
          title={`Data folder: ${status.home}`}
        >
          {status.home}
        </span>
      ) : null}
    </footer>
  );
}

/** A finished batch: the files indexed of those asked for, then those that failed or need a password. */
function batchText(queue: QueueView): string {
  const failed = queue.failed - queue.locked;
  // The embedding tail counts passages, not files: none of them failed.
  const done = queue.last?.phase === 'embedding' ? queue.done : queue.done - queue.failed;
  const parts = [
    `Indexed ${done.toLocaleString()} of ${queue.total.toLocaleString()}`,
    failed > 0 ? plural(failed, 'failed', 'failed') : null,
    queue.locked > 0 ? plural(queue.locked, 'needs a password', 'need a password') : null,
  ];
  return parts.filter(Boolean).join(' · ');
}

/** The workspace server: local only, or online/offline with the operations waiting to be sent. */
function SyncItem({
  sync,
  onOpenSettings,
}: {
  sync: SyncStatusView | undefined;
  onOpenSettings: () => void;
}) {
  if (!sync?.connected) {
    // Disconnected by the server (revoked) or by an update: say why, never just "local".
    return (
      <Tip content={sync?.lastError ?? 'Not connected to a workspace server'}>
        <button type="button" className="statusbar__item statusbar__button" onClick={onOpenSettings}>
          <HardDrive size={12} aria-hidden="true" className="statusbar__icon" />
          <span>Local only</span>
          {sync?.lastError ? <span className="statusbar__lost">· disconnected</span> : null}
        </button>
      </Tip>
    );
  }
  const online = sync.state !== 'offline';
  const last = sync.lastSync
    ? `Last sync ${formatRelative(sync.lastSync)} (${formatDateTime(sync.lastSync)})`
    : 'Not synced yet';
  // Local changes the server refused (or that could not be sent) never reach anyone: shown, not hidden.
  const notSent = sync.refused > 0 ? `${plural(sync.refused, 'change')} not sent` : null;
  const why = sync.lastRefused ? `${notSent}; latest: ${sync.lastRefused.reason}` : notSent;
  const tip = [last, sync.lastError && !online ? sync.lastError : null, why].filter(Boolean).join(' · ');
  return (
    <Tip content={tip}>
      <button
        type="button"
        className="statusbar__item statusbar__button"
        onClick={onOpenSettings}
        aria-label={`Sync: ${online ? 'online' : 'offline'}, ${plural(sync.pending, 'operation')} pending${notSent ? `, ${notSent}` : ''}. ${last}`}
      >
        {online ? (
          <Cloud size={12} aria-hidden="true" className="statusbar__icon" />
        ) : (
          <CloudOff size={12} aria-hidden="true" className="statusbar__icon" />
        )}
        <span>
          {online ? 'Online' : 'Offline'} · {sync.pending.toLocaleString()} pending
        </span>
        {notSent ? <span className="statusbar__lost">· {notSent}</span> : null}
      </button>
    </Tip>
  );
}
