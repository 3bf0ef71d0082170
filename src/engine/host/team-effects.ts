/**
 * What the app host (src/engine/host/host.ts) tells the app after a team operation
 * (src/shared/api/ops/team.ts) ran through the engine's commands: the operations answer the same
 * on every surface, and only a long-lived host has screens to refresh and a write-back loop to
 * wake. Each effect runs whether the operation succeeded or failed (the answer is then
 * undefined): a failed round still changed the status bar (offline, the last error).
 */
import type { OutputOf } from '#shared/api/operation.ts';
import type { SyncConnect, SyncNow } from '#shared/api/ops/team.ts';

/** What a host offers an effect: its events and its write-back loop. */
export type HostSignals = {
  /** `status.changed` with the host's status now. */
  statusChanged(): void;
  /** `files.changed`: lists refresh (scopes, re-keyed or removed items). */
  filesChanged(): void;
  /** `inbox.changed`: proposals were pulled, decided elsewhere or evicted. */
  inboxChanged(): void;
  /** Wakes the write-back loop (a model just configured may have passes waiting). */
  kick(): void;
};

/** Runs after an operation; `answer` is what it answered, undefined when it failed. */
type OperationEffect = (answer: unknown) => void;
export type OperationEffects = Partial<Record<string, OperationEffect>>;

type ConnectAnswer = OutputOf<typeof SyncConnect> | undefined;
type NowAnswer = OutputOf<typeof SyncNow> | undefined;

export function teamEffects(host: HostSignals): OperationEffects {
  /** After connect, leave, a round or a membership change: the status and the file list may differ. */
  const synced = (proposals = 0) => {
    if (proposals > 0) host.inboxChanged();
    host.statusChanged();
    host.filesChanged();
  };
  return {
    'sync.connect': (answer) => synced((answer as ConnectAnswer)?.sync?.proposals),
    'sync.now': (answer) => synced((answer as NowAnswer)?.proposals),
    'sync.leave': () => synced(),
    // A change of the acting member's teams applies to local scope checks at once.
    'members.add': () => synced(),
    'teams.add': () => synced(),
    'teams.remove': () => synced(),
    'chatModel.set': () => {
      host.statusChanged();
      host.kick();
    },
  };
}
