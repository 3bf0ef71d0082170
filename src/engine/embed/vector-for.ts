import type { Engine } from '../engine.ts';

/** A vector for a new note or entity when the model is on; null otherwise (keyword search still finds it). */
export async function vectorFor(
  engine: Engine,
  text: string,
): Promise<{ model: string; vector: Float32Array } | null> {
  if (engine.embedder.state().status !== 'on') return null;
  try {
    const [vector] = await engine.embedder.embed([text]);
    const model = engine.embedder.modelId();
    return vector && model ? { model, vector } : null;
  } catch {
    return null; // the model failing never fails the write; `brain index` embeds it later
  }
}
