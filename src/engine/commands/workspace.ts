/**
 * app.info, status.get, watch.list/add/remove, model.download and model.use
 * (src/shared/api/ops/workspace.ts),
 * as every surface runs them. Watched folders and the app's name and version belong to a host that
 * stays up (`ctx.host`); the model downloads in that host's background, or here and now with
 * progress (`model.progress`) in a one-shot process.
 */
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type {
  AppInfoGet,
  ModelDownload,
  ModelUse,
  StatusGet,
  WatchAdd,
  WatchList,
  WatchRemove,
} from '#shared/api/ops/workspace.ts';
import { EMBEDDING_MODEL_CHOICES, EMBEDDING_MODELS } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import { chatModelStatus } from '../chat/chat-model.ts';
import { chooseModel, chosenModelId, itemsToEmbed } from '../embed/choice.ts';
import { downloadModel, downloadProgress, modelHub } from '../embed/index.ts';
import { findModelDir } from '../embed/model-dir.ts';
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
  return {
    ...engine.status(),
    embeddingModels: embeddingModels(engine),
    chatModel: chatModelStatus(engine.db),
  };
}

/** The models to choose from, which of them are here, and the workspace's choice ([R8]). */
function embeddingModels(engine: Engine): OutputOf<typeof StatusGet>['embeddingModels'] {
  const chosen = chosenModelId(engine.db);
  return EMBEDDING_MODEL_CHOICES.map((choice) => {
    const { id, name, about } = EMBEDDING_MODELS[choice];
    const downloaded = findModelDir({ home: engine.home, modelId: id }) !== null;
    const downloading = downloadProgress(engine.home, id);
    return {
      choice,
      modelId: id,
      name,
      about,
      downloaded,
      chosen: id === chosen,
      ...(downloading === undefined ? {} : { downloading }),
    };
  });
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

/**
 * Downloads the named model (else the workspace's), and when one was named, switches the
 * workspace to it once it is here ([R8] in docs/RETRIEVAL.md).
 */
async function modelDownload(
  ctx: CommandContext,
  input: ParsedInputOf<typeof ModelDownload>,
): Promise<OutputOf<typeof ModelDownload>> {
  const engine = ctx.engine;
  const modelId = input.model ? EMBEDDING_MODELS[input.model].id : chosenModelId(engine.db);
  const choose = () => {
    if (input.model) chooseModel(engine.db, input.model);
  };
  if (ctx.host) {
    ctx.host.downloadModel(modelId, choose);
    return { started: true };
  }
  const dir = await downloadModel({
    home: engine.home,
    modelId,
    remoteHost: modelHub(),
    onProgress: (fraction, file) => ctx.notify?.('model.progress', { fraction, file }),
  });
  choose();
  return { started: true, dir, model: engine.embedder.state() };
}

/** Switches the workspace's embedding model to one already downloaded ([R8]). */
async function modelUse(
  ctx: CommandContext,
  input: ParsedInputOf<typeof ModelUse>,
): Promise<OutputOf<typeof ModelUse>> {
  const engine = ctx.engine;
  const { id, name } = EMBEDDING_MODELS[input.model];
  if (!findModelDir({ home: engine.home, modelId: id })) {
    throw new AppError(
      'not-found',
      `The ${name} embedding model (${id}) is not downloaded yet: get it with \`brain model download --${input.model}\` or Settings → Semantic search → Download. Nothing was changed.`,
      { modelId: id },
    );
  }
  chooseModel(engine.db, input.model);
  ctx.host?.embedAgain();
  return { modelId: id, model: engine.embedder.state(), toEmbed: itemsToEmbed(engine.db, id) };
}

export const workspaceHandlers = {
  'app.info': appInfo,
  'status.get': statusGet,
  'watch.list': watchList,
  'watch.add': watchAdd,
  'watch.remove': watchRemove,
  'model.download': modelDownload,
  'model.use': modelUse,
};
