/**
 * The command names of the BrainApi without their schemas, for the sandboxed preload (which should
 * not carry zod). contract.test.ts checks this list against the contract.
 */
export const API_COMMANDS = [
  'app.info',
  'status.get',
  'files.list',
  'files.add',
  'files.index',
  'items.dossier',
  'items.read',
  'search.query',
  'context.get',
  'notes.add',
  'chat.threads',
  'chat.thread',
  'chat.send',
  'chat.delete',
  'settings.get',
  'settings.set',
  'watch.list',
  'watch.add',
  'watch.remove',
  'sample.load',
  'model.download',
  'activity.list',
  'entities.list',
  'entities.duplicates',
  'entities.link',
  'graph.get',
  'chat.remember',
  'chatModel.get',
  'chatModel.set',
  'chatModel.test',
  'inbox.list',
  'inbox.approve',
  'inbox.reject',
  'runs.list',
  'sync.status',
  'sync.connect',
  'sync.now',
  'sync.members',
  'sync.leave',
] as const;

export function isApiCommand(value: unknown): value is (typeof API_COMMANDS)[number] {
  return typeof value === 'string' && (API_COMMANDS as readonly string[]).includes(value);
}
