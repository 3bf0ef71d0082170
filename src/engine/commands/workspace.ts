/**
 * app.info, status.get, watch.list/add/remove and model.download (src/shared/api/ops/workspace.ts),
 * as every surface runs them. Watched folders and the app's name and version belong to a host that
 * stays up (`ctx.host`); the model downloads in that host's background, or here and now with
 * progress (`model.progress`) in a one-shot process.
 */
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type {
  AppInfoGet,
  ModelDownload,
  StatusGet,
  WatchAdd,
  WatchList,
  WatchRemove,
} from '#shared/api/ops/workspace.ts';
import { AppError } from '#shared/errors.ts';
import { chatModelStatus } from '../chat/chat-model.ts';
import { downloadModel } from '../embed/index.ts';
import type { Engine } from '../engine.ts';
import type { CommandContext, HostServices } from './types.ts';

function hostOf(ctx: CommandContext, name: string): HostServices {
  if (!ctx.host) throw new AppError('not-found', `${name} is offered only by the app and brain serve.`);
  return ctx.host;
}

async function appInfo(ctx: CommandContext, _: ParsedInputOf<typeof AppInfoGet>) {
  const e = ctx.engine;
  const version = hostOf(ctx, 'app.info').version;
  return { name: 'Org Brain', version, user: e.user, home: e.home, workspace: e.workspaceId };
}

/** What status.get answers; a host also sends it as `status.changed`. */
export function statusView(engine: Engine): OutputOf<typeof StatusGet> {
  return { ...engine.status(), chatModel: chatModelStatus(engine.db) };
}

async function statusGet(ctx: CommandContext, _: ParsedInputOf<typeof StatusGet>) {
  return statusView(ctx.engine);
}

async function watchList(ctx: CommandContext, _: ParsedInputOf<typeof WatchList>) {
  return { folders: hostOf(ctx, 'watch.list').watcher.list() };
}

async function watchAdd(ctx: CommandContext, input: ParsedInputOf<typeof WatchAdd>) {
  return hostOf(ctx, 'watch.add').watcher.add(input.path, input.scope);
}

async function watchRemove(ctx: CommandContext, input: ParsedInputOf<typeof WatchRemove>) {
  return { removed: await hostOf(ctx, 'watch.remove').watcher.remove(input.path) };
}

async function modelDownload(
  ctx: CommandContext,
  _: ParsedInputOf<typeof ModelDownload>,
): Promise<OutputOf<typeof ModelDownload>> {
  if (ctx.host) {
    ctx.host.downloadModel();
    return { started: true };
  }
  const dir = await downloadModel({
    home: ctx.engine.home,
    onProgress: (fraction, file) => ctx.notify?.('model.progress', { fraction, file }),
  });
  return { started: true, dir, model: ctx.engine.embedder.state() };
}

export const workspaceHandlers = {
  'app.info': appInfo,
  'status.get': statusGet,
  'watch.list': watchList,
  'watch.add': watchAdd,
  'watch.remove': watchRemove,
  'model.download': modelDownload,
};
