/** The palette's commands, built from the app's actions. */

import type { PaletteItem } from '../features/palette/palette-items.ts';
import { call } from '../lib/api.ts';
import type { AppActions } from './app-context.ts';

export function buildCommands(app: AppActions): PaletteItem[] {
  const cmd = (
    id: string,
    label: string,
    run: () => void,
    keywords?: string,
    hint?: string,
  ): PaletteItem => ({
    id: `cmd:${id}`,
    group: 'Commands',
    label,
    run,
    keywords,
    hint,
  });
  return [
    cmd(
      'index-all',
      'Index all files',
      () => void app.indexAll(),
      'reindex answerable queue',
      'Every file not indexed yet',
    ),
    cmd('watch', 'Watch a folder…', app.openWatchDialog, 'add folder follow sync'),
    cmd('sample', 'Load sample workspace', () => void app.loadSample(), 'demo example start'),
    cmd('go-files', 'Go to Files', () => app.go('files'), 'grid table documents'),
    cmd('go-trees', 'Go to Trees', () => app.go('trees'), 'repository repositories git markdown connect'),
    cmd('go-chat', 'Go to Chat', () => app.go('chat'), 'ask question answer'),
    cmd('go-inbox', 'Go to Inbox', () => app.go('inbox'), 'review proposals approve reject write-back'),
    cmd(
      'new-chat',
      'New chat',
      () => {
        app.setChatThreadId(null);
        app.go('chat');
      },
      'thread ask',
    ),
    cmd('go-activity', 'Go to Activity', () => app.go('activity'), 'timeline log history'),
    cmd('go-agents', 'Go to Agents', () => app.go('agents'), 'agent brains observations synthesize rollback'),
    cmd('go-settings', 'Go to Settings', () => app.go('settings'), 'preferences options'),
    cmd(
      'download-model',
      'Download the semantic search model',
      () => {
        call('model.download')
          .then((r) =>
            app.notify(r.started ? 'Downloading the model' : 'The model is already here', 'success'),
          )
          .catch((err: unknown) => app.notify(`Could not download the model: ${String(err)}`, 'error'));
      },
      'embedding semantic',
    ),
  ];
}
