import type { ConnectionOverrides } from '../connection/connection-overrides';

/** Connection settings besides address and namespace: TLS, API key, profile, config file, timeout. */
export type TemporalConnectionOptions = Omit<ConnectionOverrides, 'address' | 'namespace'>;

/** Settings read once from the environment at start, then passed in; workflows never read env. */
export interface WorkerConfig {
  /**
   * The Temporal frontend. Given to createWorker it wins over TEMPORAL_ADDRESS and the config
   * profile; on a running worker it is the address resolved from all of them.
   */
  temporalAddress: string;
  /** Like temporalAddress: TEMPORAL_NAMESPACE and the profile otherwise. */
  namespace: string;
  /** Overrides of the rest of Temporal's environment configuration; never holds a key on a running worker. */
  temporal?: TemporalConnectionOptions;
  taskQueue: string;
  /** OpenAI-compatible endpoint; OpenAI's when unset. */
  openaiBaseUrl?: string;
  /** Kept out of logs and history; only the model client holds it. */
  openaiApiKey?: string;
  defaultModel: string;
  toolsConfigPath: string;
  workspace: string;
}

/** The worker's own settings; the connection (address, namespace, TLS, API key) comes from resolveConnectionSettings. */
export type WorkerEnvConfig = Omit<WorkerConfig, 'temporalAddress' | 'namespace' | 'temporal'>;

export const DEFAULT_TASK_QUEUE = 'durable-agent';
export const DEFAULT_MODEL = 'gpt-4o-mini';

export function readWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerEnvConfig {
  const workspace = env.AGENT_WORKSPACE || 'workspace';
  return {
    taskQueue: env.TEMPORAL_TASK_QUEUE || DEFAULT_TASK_QUEUE,
    openaiBaseUrl: env.OPENAI_BASE_URL || undefined,
    openaiApiKey: env.OPENAI_API_KEY || undefined,
    defaultModel: env.AGENT_MODEL || DEFAULT_MODEL,
    toolsConfigPath: env.AGENT_TOOLS_CONFIG || `${workspace}/tools.json`,
    workspace,
  };
}
