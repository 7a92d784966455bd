import { resolve } from 'node:path';
import { startScriptedModelServer } from '../../testing/scripted-model-server';
import type { ModelScript } from '../../testing/scripted-model-types';
import type { WorkerConfig } from '../../worker/config';
import { importModule } from '../../worker/load-agents-module';
import { UsageError } from '../command';
import { findLocalModel } from './local-model-endpoint';

export interface DevModel {
  /** What the worker is given over its configuration from the environment. */
  overrides: Partial<WorkerConfig>;
  /** One line for the person: which model, where. */
  description: string;
  stop(): Promise<void>;
}

const nothingToStop = async (): Promise<void> => undefined;

async function loadScript(path: string): Promise<ModelScript> {
  const exports = (await importModule(resolve(path))) as { modelScript?: unknown };
  const script = exports.modelScript;
  if (typeof script !== 'function' && !Array.isArray(script)) {
    throw new UsageError(`${path} exports no \`modelScript\` (a function or an array of turns, as startScriptedModelServer takes)`);
  }
  return script as ModelScript;
}

/**
 * The model of a `dev` run: a server on this machine when asked (--local-model); else the one the
 * environment names (OPENAI_API_KEY, OPENAI_BASE_URL); else the scripted model, on the project's script.
 */
export async function devModel(options: { localModel: boolean; modelScript: string | undefined }, env: NodeJS.ProcessEnv = process.env): Promise<DevModel> {
  if (options.localModel) {
    const local = await findLocalModel(env);
    // llama-server and Ollama hold a reply to a JSON Schema: small models then write valid calls; a reply that escapes it
    // is read for a call written as text (docs/providers.md). The environment's settings win.
    const textToolCallModels = env.AGENT_TEXT_TOOL_CALLS ? undefined : ['*'];
    const constrainedCallModels = env.AGENT_CONSTRAINED_CALLS ? undefined : ['*'];
    return {
      overrides: { openaiBaseUrl: local.baseURL, defaultModel: local.model, ...(textToolCallModels ? { textToolCallModels } : {}), ...(constrainedCallModels ? { constrainedCallModels } : {}) },
      description: `${local.model} at ${local.baseURL} (a model on this machine)`,
      stop: nothingToStop,
    };
  }
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) {
    return { overrides: {}, description: `${env.AGENT_MODEL || 'the default model'} at ${env.OPENAI_BASE_URL || 'https://api.openai.com/v1'}`, stop: nothingToStop };
  }
  if (!options.modelScript) {
    throw new UsageError('no model: set OPENAI_API_KEY (or OPENAI_BASE_URL), give --model-script FILE for the scripted model, or --local-model');
  }
  const server = await startScriptedModelServer({ script: await loadScript(options.modelScript) });
  return {
    overrides: { openaiBaseUrl: server.baseURL, defaultModel: 'scripted-model' },
    description: `the scripted model of ${options.modelScript} at ${server.baseURL} (no OPENAI_API_KEY: a local fake, not an LLM)`,
    stop: () => server.close(),
  };
}
