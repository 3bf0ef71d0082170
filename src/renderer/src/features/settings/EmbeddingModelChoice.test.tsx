/**
 * Settings → Semantic search → Language ([R8] in docs/RETRIEVAL.md) in the real app shell over a
 * fake engine: a downloaded model is switched to with model.use, one that is not is downloaded
 * (model.download, then used), the download's progress and the re-embedding show, and a refusal
 * shows as a notice.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EmbeddingModelView, StatusView } from '#shared/api/types.ts';
import { shellAnswers, status } from '../../test/canned.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';

const EN = 'Xenova/all-MiniLM-L6-v2';
const ML = 'Xenova/paraphrase-multilingual-MiniLM-L12-v2';

function models(patch: {
  english?: Partial<EmbeddingModelView>;
  multilingual?: Partial<EmbeddingModelView>;
}) {
  const base = status().embeddingModels;
  return base.map((m) => ({ ...m, downloaded: true, ...(patch[m.choice] ?? {}) }));
}

function engine(view: Partial<StatusView>) {
  const t = fakeTransport(shellAnswers());
  t.answer('status.get', () => status({ model: { status: 'on', modelId: EN }, ...view }));
  t.answer('model.use', (input) => ({
    modelId: input.model === 'english' ? EN : ML,
    model: { status: 'on', modelId: ML },
    toEmbed: 12,
  }));
  t.answer('model.download', () => ({ started: true }));
  return t;
}

async function openSection(t: ReturnType<typeof fakeTransport>) {
  const view = renderApp(t);
  const rail = await screen.findByRole('navigation', { name: 'Main' });
  await view.user.click(within(rail).getByRole('button', { name: 'Settings' }));
  const section = await screen.findByRole('region', { name: 'Semantic search' });
  const group = await within(section).findByRole('group', { name: 'Language' });
  return { ...view, section, group };
}

describe('Settings → Semantic search → Language', () => {
  it('switches to a downloaded model with model.use and shows the embedding that follows', async () => {
    const t = engine({ embeddingModels: models({}) });
    const { user, section, group } = await openSection(t);
    const english = within(group).getByRole('radio', { name: /English/ }) as HTMLInputElement;
    expect(english.checked).toBe(true);
    await user.click(within(group).getByRole('radio', { name: /Multilingual/ }));
    await waitFor(() => expect(t.inputsOf('model.use')).toEqual([{ model: 'multilingual' }]));
    expect(t.inputsOf('model.download')).toEqual([]);

    t.emit('index.progress', { fileId: '', label: 'embedding', phase: 'embedding', done: 3, total: 12 });
    const embedding = await within(section).findByRole('status', { name: 'Embedding again' });
    expect(embedding.textContent).toContain('Embedding 3 of 12 items');
    expect(within(embedding).getByRole('progressbar', { name: 'Embedding' })).toBeTruthy();
  });

  it('downloads a model that is not here, with its progress, before it is used', async () => {
    const t = engine({ embeddingModels: models({ multilingual: { downloaded: false } }) });
    const { user, section, group } = await openSection(t);
    expect(
      within(group)
        .getByRole('radio', { name: /Multilingual/ })
        .closest('label')?.textContent,
    ).toContain('Downloads when chosen');
    await user.click(within(group).getByRole('radio', { name: /Multilingual/ }));
    await waitFor(() => expect(t.inputsOf('model.download')).toEqual([{ model: 'multilingual' }]));
    expect(t.inputsOf('model.use')).toEqual([]);

    t.emit(
      'status.changed',
      status({
        model: { status: 'on', modelId: EN },
        embeddingModels: models({ multilingual: { downloaded: false, downloading: 0.42 } }),
      }),
    );
    const progress = await within(section).findByRole('status', { name: 'Model download' });
    expect(progress.textContent).toContain('Downloading the Multilingual model (42 %)');
    expect(progress.textContent).toContain(`${EN} answers until then`);
  });

  it('shows a refusal as a notice and leaves the choice as it was', async () => {
    const t = engine({ embeddingModels: models({}) });
    t.fail('model.use', 'not-found', 'The Multilingual embedding model is not downloaded yet.');
    const { user, section, group } = await openSection(t);
    await user.click(within(group).getByRole('radio', { name: /Multilingual/ }));
    expect(await within(section).findByText('Could not change the embedding model')).toBeTruthy();
    expect((within(group).getByRole('radio', { name: /English/ }) as HTMLInputElement).checked).toBe(true);
  });
});
