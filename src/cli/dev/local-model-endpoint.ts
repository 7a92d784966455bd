import { z } from 'zod';

/** Where a model served on this machine usually answers: llama.cpp's llama-server, then Ollama. */
export const LOCAL_MODEL_URLS = ['http://127.0.0.1:8080/v1', 'http://127.0.0.1:11434/v1'];

const modelList = z.object({ data: z.array(z.object({ id: z.string() })).min(1) });

async function servedModels(baseURL: string): Promise<string[] | undefined> {
  try {
    const response = await fetch(`${baseURL.replace(/\/$/, '')}/models`, { signal: AbortSignal.timeout(2_000) });
    const parsed = modelList.safeParse(response.ok ? await response.json() : undefined);
    return parsed.success ? parsed.data.data.map((model) => model.id) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An OpenAI-compatible server on this machine and the model it serves: OPENAI_BASE_URL if set, else
 * the first of LOCAL_MODEL_URLS that lists a model; AGENT_MODEL if set, else the first it lists.
 */
export async function findLocalModel(env: NodeJS.ProcessEnv = process.env, candidates: readonly string[] = LOCAL_MODEL_URLS): Promise<{ baseURL: string; model: string }> {
  const urls = env.OPENAI_BASE_URL ? [env.OPENAI_BASE_URL] : candidates;
  for (const baseURL of urls) {
    const models = await servedModels(baseURL);
    if (models) return { baseURL, model: env.AGENT_MODEL || models[0]! };
  }
  throw new Error(
    `--local-model: no model server answers at ${urls.join(' or ')}. Start one, e.g. llama.cpp's \`llama-server -m MODEL.gguf --port 8080 --jinja\` ` +
      'or Ollama (`ollama serve`, then `ollama pull qwen2.5-coder:1.5b`), or set OPENAI_BASE_URL to yours.',
  );
}
