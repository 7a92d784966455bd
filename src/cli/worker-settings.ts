import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { WorkerConfigurationError } from '../worker/configuration-error';
import { readDeploymentOptions, type WorkerDeployment } from '../worker/deployment-options';

/** Where the worker entry point takes its agents from. */
export type AgentsSource = { module: string } | { demo: true };

/** What `durable-agent worker` reads from its flags and the environment besides WorkerConfig. */
export interface EntrySettings {
  agents: AgentsSource;
  /** AGENT_WORKFLOW_BUNDLE: a bundle made by `durable-agent bundle`. */
  workflowBundle?: string;
  /** AGENT_HEALTH_FILE: the file the worker keeps fresh for health checks. */
  healthFile?: string;
  deployment?: WorkerDeployment;
}

const isOn = (value: string | undefined): boolean => /^(1|true|yes)$/i.test(value?.trim() ?? '');

function agentsSource(env: NodeJS.ProcessEnv, problems: string[]): AgentsSource | undefined {
  const module = env.AGENT_MODULE?.trim();
  if (module) {
    const path = resolve(module);
    if (existsSync(path)) return { module: path };
    problems.push(`AGENT_MODULE=${module}: no such file (${path}). Mount or copy your agents module there.`);
    return undefined;
  }
  if (isOn(env.AGENT_DEMO)) return { demo: true };
  problems.push(
    'AGENT_MODULE is not set: give --module PATH (or set AGENT_MODULE), your JavaScript or TypeScript module that exports `agents` (an array of defineAgent(...) results, and optionally `mcpServers`), ' +
      'e.g. --module ./agents.ts; or --demo (AGENT_DEMO=1) to serve the demo agents.',
  );
  return undefined;
}

/**
 * Reads and checks the entry point's settings, reporting every problem at once in one
 * WorkerConfigurationError, so whoever deploys it fixes them in one go.
 */
export function readEntrySettings(env: NodeJS.ProcessEnv = process.env): EntrySettings {
  const problems: string[] = [];
  const agents = agentsSource(env, problems);
  if (!env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) {
    problems.push('No model endpoint: set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL / --model-url (any OpenAI-compatible server such as Ollama or vLLM).');
  }
  const workflowBundle = env.AGENT_WORKFLOW_BUNDLE?.trim() || undefined;
  if (workflowBundle && !existsSync(workflowBundle)) {
    problems.push(`AGENT_WORKFLOW_BUNDLE=${workflowBundle}: no such file. Make it with \`durable-agent bundle --out ${workflowBundle}\`, or unset it to bundle at start.`);
  }
  let deployment: WorkerDeployment | undefined;
  try {
    deployment = readDeploymentOptions(env);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (problems.length > 0 || !agents) {
    throw new WorkerConfigurationError(`the worker's configuration is incomplete:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
  const healthFile = env.AGENT_HEALTH_FILE?.trim() || undefined;
  return {
    agents,
    ...(workflowBundle ? { workflowBundle } : {}),
    ...(healthFile ? { healthFile } : {}),
    ...(deployment ? { deployment } : {}),
  };
}
