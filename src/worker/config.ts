/** Settings read once from the environment at start, then passed in; workflows never read env. */
export interface WorkerConfig {
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  /** OpenAI-compatible endpoint; OpenAI's when unset. */
  openaiBaseUrl?: string;
  /** Kept out of logs and history; only the model client holds it. */
  openaiApiKey?: string;
  defaultModel: string;
  toolsConfigPath: string;
  workspace: string;
}

export const DEFAULT_TASK_QUEUE = 'durable-agent';
export const DEFAULT_MODEL = 'gpt-4o-mini';

export function readWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const workspace = env.AGENT_WORKSPACE || 'workspace';
  return {
    temporalAddress: env.TEMPORAL_ADDRESS || '127.0.0.1:7233',
    namespace: env.TEMPORAL_NAMESPACE || 'default',
    taskQueue: env.TEMPORAL_TASK_QUEUE || DEFAULT_TASK_QUEUE,
    openaiBaseUrl: env.OPENAI_BASE_URL || undefined,
    openaiApiKey: env.OPENAI_API_KEY || undefined,
    defaultModel: env.AGENT_MODEL || DEFAULT_MODEL,
    toolsConfigPath: env.AGENT_TOOLS_CONFIG || `${workspace}/tools.json`,
    workspace,
  };
}
